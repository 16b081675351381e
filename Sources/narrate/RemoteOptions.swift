import ArgumentParser
import Foundation
import NarrateKit

/// The remote engine: any OpenAI-compatible speech API instead of eSpeak NG.
struct RemoteOptions: ParsableArguments {
    @Option(name: .customLong("remote"), help: ArgumentHelp("Speak through an OpenAI-compatible speech API: its base URL (https://api.openai.com/v1, http://127.0.0.1:8880/v1).", valueName: "url"))
    var url: String?

    @Option(name: .customLong("remote-model"), help: "The remote API's model (default: tts-1).")
    var model: String?

    @Option(name: .customLong("remote-voice"), help: "The remote API's voice (default: alloy).")
    var voice: String?

    @Option(name: .customLong("fallback"), help: ArgumentHelp("What speaks text the remote API cannot deliver after its retries: espeak.", valueName: "engine"))
    var fallback: RemoteFallback?

    @Option(name: .customLong("max-characters"), help: "Send at most this many characters to the remote API in this run (cached audio is free).")
    var maxCharacters: Int?

    enum RemoteFallback: String, ExpressibleByArgument, CaseIterable {
        case espeak
    }

    func validate() throws {
        if let maxCharacters, maxCharacters < 0 { throw ValidationError("--max-characters must be 0 or more (got \(maxCharacters)).") }
        if url == nil, model != nil || voice != nil || fallback != nil || maxCharacters != nil {
            // A preset may name the API; the check that one does comes once voices are known.
            return
        }
    }

    /// The configuration with the remote engine these options (or the voice preset's `remote`)
    /// name; unchanged when neither names one.
    /// - Parameters:
    ///   - preset: the remote API the chosen voice preset names, if any.
    ///   - keyFile: `--api-key-file`: read when neither NARRATE_API_KEY nor OPENAI_API_KEY is set.
    ///   - jobs: requests in flight at once.
    /// - Throws: `SpeechError.remoteRefused` (status 0) for a bad URL or key file, or remote
    ///   settings without a remote API.
    func apply(to configuration: inout NarrateConfiguration, preset: RemoteVoice?, keyFile: String?, jobs: Int) throws {
        guard let base = url ?? preset?.url else {
            if model != nil || voice != nil || fallback != nil || maxCharacters != nil {
                throw ValidationError("--remote-model, --remote-voice, --fallback and --max-characters need --remote URL (or a voice preset that names a remote API).")
            }
            return
        }
        let key = try RemoteAPIKey.load(environment: ProcessInfo.processInfo.environment, file: keyFile)
        configuration.remote = try RemoteSpeechEngine(
            url: base,
            model: model ?? preset?.model ?? RemoteSpeechEngine.defaultModel,
            voice: voice ?? preset?.voice ?? RemoteSpeechEngine.defaultVoice,
            apiKey: key,
            concurrency: jobs,
            maxCharacters: maxCharacters
        )
        configuration.fallsBackToESpeak = fallback == .espeak
    }
}
