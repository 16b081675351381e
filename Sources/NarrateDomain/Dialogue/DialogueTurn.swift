/// The quotations one person speaks in one go: the quoted parts of a paragraph, and the
/// paragraphs a quotation runs on into.
struct DialogueTurn {
    /// The quotations, by index.
    var quotes: [Int]
    /// The first paragraph.
    var firstParagraph: Int
    /// The last paragraph.
    var lastParagraph: Int
    /// The speaker decided for the whole turn, if any.
    var speaker: Int?
    /// The rule that decided it.
    var rule: AttributionRule = .unattributed
}
