/// One audio file of an export: its pages and the chapters that start in it.
public struct ExportItem: Sendable, Hashable {
    /// A chapter that starts inside this file.
    public struct ChapterStart: Sendable, Hashable {
        public var title: String
        /// Index into `ExportItem.pages` of the chapter's first page.
        public var pageOffset: Int

        public init(title: String, pageOffset: Int) {
            self.title = title
            self.pageOffset = pageOffset
        }
    }

    /// 1-based position among the export's files.
    public var number: Int
    /// The file name without extension, sorting in reading order: `003 - Loomings`.
    public var fileStem: String
    /// The file's title: its chapter's, or the book's.
    public var title: String
    public var pages: [Page]
    public var chapters: [ChapterStart]

    public init(number: Int, fileStem: String, title: String, pages: [Page], chapters: [ChapterStart]) {
        self.number = number
        self.fileStem = fileStem
        self.title = title
        self.pages = pages
        self.chapters = chapters
    }
}
