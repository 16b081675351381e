/// The voice a caller asks for: a preset or engine voice name (or `nil` for the book's
/// language), parameters laid over it, pronunciation lexicons in front of the voice's own, and
/// OpenAI's `speed` (a factor on the voice's rate, `nil` for its own).
public struct VoiceRequest: Sendable, Hashable {
    public var name: String?
    public var overrides: VoiceOverrides
    public var lexicons: [PronunciationLexicon]
    public var speed: Double?

    public init(name: String? = nil, overrides: VoiceOverrides = VoiceOverrides(), lexicons: [PronunciationLexicon] = [], speed: Double? = nil) {
        self.name = name
        self.overrides = overrides
        self.lexicons = lexicons
        self.speed = speed
    }
}
