/// A name as written at one place: an optional title and the name's words.
struct NamePhrase: Sendable, Equatable {
    /// The title before the name ("Mr", "Lady"), or nil.
    let title: String?
    /// The words of the name, without the title.
    let words: [String]
    /// The first token of the phrase.
    let first: Int
    /// The last token of the phrase.
    let last: Int

    /// The name as printed: "Mr. Frank Churchill".
    var display: String {
        ([title.map(CharacterTitles.display)].compactMap { $0 } + words).joined(separator: " ")
    }

    /// What identifies the phrase when phrases are grouped.
    var key: String { display }
}

extension NamePhrase {
    /// The quotation the phrase stands in, or nil in narration.
    func quotation(in tokens: [DialogueToken]) -> Int? { tokens[first].quotation }
}
