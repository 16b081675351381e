/// What a listing shows of an installed Kokoro voice.
public struct KokoroVoiceInfo: Sendable, Hashable, Codable {
    /// The `.onnx` model it speaks with.
    public var model: String
    /// Its style pack file.
    public var pack: String
    /// The language tag its prefix names (`en-US`).
    public var language: String

    public init(model: String, pack: String, language: String) {
        self.model = model
        self.pack = pack
        self.language = language
    }
}
