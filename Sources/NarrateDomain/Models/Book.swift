/// A parsed book: metadata, table of contents and pages of text.
public struct Book: Sendable, Hashable, Codable {
    public var metadata: BookMetadata
    public var format: DocumentFormat
    public var chapters: [Chapter]
    public var pages: [Page]
    public var cover: BookCover?

    public init(metadata: BookMetadata, format: DocumentFormat, chapters: [Chapter] = [], pages: [Page], cover: BookCover? = nil) {
        self.metadata = metadata
        self.format = format
        self.chapters = chapters
        self.pages = pages
        self.cover = cover
    }
}
