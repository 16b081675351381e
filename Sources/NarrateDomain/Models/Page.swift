/// One page of a book: the unit a user narrates.
public struct Page: Sendable, Hashable, Codable {
    /// 1-based position in the book.
    public var index: Int
    /// The page's label: the printed page number when the book has one, else its index.
    public var label: String
    /// The chapter the page belongs to (0-based index into `Book.chapters`), if any: the one in force at the top
    /// of its text (chapters can also start lower on the page; see `Chapter.textOffset`).
    public var chapterIndex: Int?
    /// The normalized text that will be spoken: paragraphs separated by a blank line.
    public var text: String

    public init(index: Int, label: String, chapterIndex: Int? = nil, text: String) {
        self.index = index
        self.label = label
        self.chapterIndex = chapterIndex
        self.text = text
    }
}
