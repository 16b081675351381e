/// A word or a punctuation mark of a text being cast, with where it stands.
struct DialogueToken: Sendable, Equatable {
    /// The word or mark as written.
    let text: String
    /// Offset of its first scalar.
    let start: Int
    /// Offset past its last scalar.
    let end: Int
    /// Whether it is a word (letters or digits) rather than a mark.
    let isWord: Bool
    /// Whether it opens a sentence (so a capital says nothing about a name).
    let opensSentence: Bool
    /// The index of the quotation holding it, or nil in narration.
    let quotation: Int?
    /// The index of its paragraph.
    let paragraph: Int

    /// Whether its first letter is a capital.
    var isCapitalized: Bool {
        guard isWord, let first = text.unicodeScalars.first else { return false }
        return first.properties.isUppercase
    }

    /// The word in lower case, for look-ups.
    var lowered: String { text.lowercased() }
}
