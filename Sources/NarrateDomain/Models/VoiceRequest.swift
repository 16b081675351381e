/// The voice a caller asks for: a preset or engine voice name (or `nil` for the book's
/// language), parameters laid over it, pronunciation lexicons in front of the voice's own, and
/// OpenAI's `speed` (a factor on the voice's rate, `nil` for its own), and what the name may be:
/// the catalog's alone unless the caller, the machine's own user, says a file will do.
public struct VoiceRequest: Sendable, Hashable {
    public var name: String?
    public var overrides: VoiceOverrides
    public var lexicons: [PronunciationLexicon]
    public var speed: Double?
    /// `.catalog` (the default, what a remote client may name) or `.catalogOrFile`.
    public var naming: VoiceNaming

    public init(
        name: String? = nil, overrides: VoiceOverrides = VoiceOverrides(), lexicons: [PronunciationLexicon] = [], speed: Double? = nil,
        naming: VoiceNaming = .catalog
    ) {
        self.name = name
        self.overrides = overrides
        self.lexicons = lexicons
        self.speed = speed
        self.naming = naming
    }
}
