/// What layout analysis makes of a printed document: the text to read, its chapters and its notes.
public struct LayoutResult: Sendable, Hashable {
    public var paragraphs: [LayoutParagraph]
    /// Empty when the document has neither an outline nor headings: it is then one chapter.
    public var chapters: [LayoutChapter]
    public var notes: [LayoutNote]
    /// How many running heads, running feet and page numbers were left out.
    public var removedRunningLines: Int

    public init(paragraphs: [LayoutParagraph], chapters: [LayoutChapter], notes: [LayoutNote], removedRunningLines: Int) {
        self.paragraphs = paragraphs
        self.chapters = chapters
        self.notes = notes
        self.removedRunningLines = removedRunningLines
    }
}
