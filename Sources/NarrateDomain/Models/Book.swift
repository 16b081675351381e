/// A parsed book: metadata, table of contents and pages of text.
public struct Book: Sendable, Hashable, Codable {
    public var metadata: BookMetadata
    public var format: DocumentFormat
    public var chapters: [Chapter]
    public var pages: [Page]
    public var cover: BookCover?
    /// What the file holds that is not the book (licences, contents lists, notes…), left out of
    /// `pages`. Empty when the book was read with everything included.
    public var skipped: [SkippedMatter]
    /// The generation of the parsers that read it (0: unknown). A library book read by an older
    /// generation is read again from its file, so parser fixes reach books already added.
    public var parserVersion: Int

    public init(
        metadata: BookMetadata, format: DocumentFormat, chapters: [Chapter] = [], pages: [Page], cover: BookCover? = nil,
        skipped: [SkippedMatter] = [], parserVersion: Int = 0
    ) {
        self.parserVersion = parserVersion
        self.metadata = metadata
        self.format = format
        self.chapters = chapters
        self.pages = pages
        self.cover = cover
        self.skipped = skipped
    }
}
