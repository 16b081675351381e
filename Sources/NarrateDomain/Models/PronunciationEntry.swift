/// One lexeme of a pronunciation lexicon: the written forms and how to say them.
public struct PronunciationEntry: Sendable, Hashable, Codable {
    /// The written forms (PLS `<grapheme>`), matched whole-word and with their case as written.
    public var graphemes: [String]
    /// The pronunciation as written in the lexicon, in `alphabet`.
    public var phonemes: String
    /// The phonetic alphabet of `phonemes`: `ipa` or `x-sampa` (others cannot be converted).
    public var alphabet: String

    public init(graphemes: [String], phonemes: String, alphabet: String) {
        self.graphemes = graphemes
        self.phonemes = phonemes
        self.alphabet = alphabet
    }
}
