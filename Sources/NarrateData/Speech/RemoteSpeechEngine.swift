import Foundation
import NarrateDomain

/// Which OpenAI-compatible speech API to speak through, and how patiently: what `--remote`,
/// `--remote-model`, `--remote-voice`, `--max-characters` and `--jobs` say.
public struct RemoteSpeechEngine: Sendable, Hashable {
    /// The API base, without a trailing slash (`https://api.openai.com/v1`).
    public let baseURL: String
    public var model: String
    public var voice: String
    public var apiKey: RemoteAPIKey?
    /// Requests in flight at once, for this process.
    public var concurrency: Int
    /// The most characters one run may send (`--max-characters`); `nil`: no cap.
    public var maxCharacters: Int?
    public var retry: RemoteRetryPolicy
    public var timeouts: Timeouts

    /// How long to wait.
    public struct Timeouts: Sendable, Hashable {
        /// To open a connection.
        public var connect: Duration
        /// One attempt's response: `responseBase` plus `responsePerCharacter` for each character
        /// of its input (a long input takes the API longer).
        public var responseBase: Duration
        public var responsePerCharacter: Duration

        public init(connect: Duration = .seconds(10), responseBase: Duration = .seconds(30), responsePerCharacter: Duration = .milliseconds(20)) {
            self.connect = connect
            self.responseBase = responseBase
            self.responsePerCharacter = responsePerCharacter
        }

        func response(characters: Int) -> Duration {
            responseBase + responsePerCharacter * min(characters, 1_000_000)
        }
    }

    /// The longest input one request carries (OpenAI's limit): longer texts are cut at sentences.
    public static let maxInputCharacters = 4096
    /// The longest audio body accepted for one request.
    static let maxBodyBytes = 64 << 20
    public static let defaultModel = "tts-1"
    public static let defaultVoice = "alloy"

    /// - Throws: `SpeechError.remoteRefused` (status 0) for a URL that is not http(s) with a host.
    public init(
        url: String, model: String = RemoteSpeechEngine.defaultModel, voice: String = RemoteSpeechEngine.defaultVoice, apiKey: RemoteAPIKey? = nil,
        concurrency: Int = 4, maxCharacters: Int? = nil, retry: RemoteRetryPolicy = RemoteRetryPolicy(), timeouts: Timeouts = Timeouts()
    ) throws(SpeechError) {
        var base = url.trimmingCharacters(in: .whitespaces)
        while base.hasSuffix("/") { base.removeLast() }
        guard let components = URLComponents(string: base), let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = components.host, !host.isEmpty, components.user == nil, components.password == nil, components.query == nil
        else {
            throw .remoteRefused(status: 0, reason: .notAnAPIBase(url: url))
        }
        guard !model.isEmpty, !voice.isEmpty else {
            throw .remoteRefused(status: 0, reason: .emptyModelOrVoice)
        }
        baseURL = base
        self.model = model
        self.voice = voice
        self.apiKey = apiKey
        self.concurrency = max(1, concurrency)
        self.maxCharacters = maxCharacters
        self.retry = retry
        self.timeouts = timeouts
    }

    /// `{base}/audio/speech`.
    var speechURL: String { baseURL + "/audio/speech" }

    /// Host, port and path of the API (`api.openai.com/v1`): what names it in messages and cache keys.
    public var endpoint: String {
        guard let components = URLComponents(string: baseURL) else { return baseURL }
        let port = components.port.map { ":\($0)" } ?? ""
        return (components.host ?? "").lowercased() + port + components.path
    }

    /// The host alone, for messages.
    public var host: String {
        URLComponents(string: baseURL)?.host ?? baseURL
    }

    /// OpenAI's `speed` for a voice's rate: 1.0 is eSpeak's default 175 words per minute, within
    /// the API's 0.25–4.0.
    public static func speed(forRate rate: Int) -> Double {
        min(4.0, max(0.25, Double(rate) / Double(VoiceProfile.narrator.rate)))
    }
}
