/// A pronunciation that is not applied, and why: the plain text is read instead.
public struct PronunciationWarning: Sendable, Hashable, CustomStringConvertible {
    /// The lexicon (or document) the entry is in.
    public var lexicon: String
    /// The entry's written form.
    public var grapheme: String
    /// What could not be used: a symbol, an alphabet.
    public var reason: String

    public init(lexicon: String, grapheme: String, reason: String) {
        self.lexicon = lexicon
        self.grapheme = grapheme
        self.reason = reason
    }

    public var description: String {
        grapheme.isEmpty
            ? "\(lexicon): \(reason); the text is read without this lexicon."
            : "\(lexicon): the pronunciation of \u{201C}\(grapheme)\u{201D} is not used (\(reason)); the word is read as written."
    }
}
