/// One quoted part of a text: the words between an opening and a closing mark (or a dialogue
/// dash and the narration that interrupts it), without the marks.
public struct Quotation: Sendable, Equatable {
    /// Offset of the first quoted scalar, in Unicode scalars from the start of the text.
    public let start: Int
    /// Offset just past the last quoted scalar.
    public let end: Int
    /// The quoted words.
    public let text: String
    /// The index of the paragraph holding the part.
    public let paragraph: Int
    /// Whether the part continues a quotation of the paragraph before (its closing mark was
    /// left out and this paragraph opens again, as a long speech runs over paragraphs).
    public let continuesPrevious: Bool

    public init(start: Int, end: Int, text: String, paragraph: Int, continuesPrevious: Bool = false) {
        self.start = start
        self.end = end
        self.text = text
        self.paragraph = paragraph
        self.continuesPrevious = continuesPrevious
    }
}
