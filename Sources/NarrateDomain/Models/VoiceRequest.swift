/// The voice a caller asks for: a preset or engine voice name (or `nil` for the book's
/// language), parameters laid over it, and pronunciation lexicons in front of the voice's own.
public struct VoiceRequest: Sendable, Hashable {
    public var name: String?
    public var overrides: VoiceOverrides
    public var lexicons: [PronunciationLexicon]

    public init(name: String? = nil, overrides: VoiceOverrides = VoiceOverrides(), lexicons: [PronunciationLexicon] = []) {
        self.name = name
        self.overrides = overrides
        self.lexicons = lexicons
    }
}
