/// A remote speech API a voice speaks through (an OpenAI-compatible `/audio/speech`), as a
/// voice preset may name it: the engine, the model and the API's own voice. Never a key.
public struct RemoteVoice: Sendable, Hashable, Codable {
    /// The API base, e.g. `https://api.openai.com/v1`; `nil`: the one given on the command line.
    public var url: String?
    /// The API's model (`tts-1`); `nil`: the default.
    public var model: String?
    /// The API's voice (`alloy`); `nil`: the default.
    public var voice: String?

    public init(url: String? = nil, model: String? = nil, voice: String? = nil) {
        self.url = url
        self.model = model
        self.voice = voice
    }
}
