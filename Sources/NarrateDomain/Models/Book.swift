/// A parsed book: metadata, table of contents and pages of text.
public struct Book: Sendable, Hashable, Codable {
    public var metadata: BookMetadata
    public var format: DocumentFormat
    public var chapters: [Chapter]
    public var pages: [Page]
    public var cover: BookCover?
    /// The book's own pronunciations: its PLS lexicons, then its inline `ssml:ph` marks as one
    /// lexicon (EPUB 3 text-to-speech). Empty for other formats and for books stored before.
    public var lexicons: [PronunciationLexicon]

    public init(metadata: BookMetadata, format: DocumentFormat, chapters: [Chapter] = [], pages: [Page], cover: BookCover? = nil, lexicons: [PronunciationLexicon] = []) {
        self.metadata = metadata
        self.format = format
        self.chapters = chapters
        self.pages = pages
        self.cover = cover
        self.lexicons = lexicons
    }

    private enum CodingKeys: String, CodingKey {
        case metadata, format, chapters, pages, cover, lexicons
    }

    /// Books encoded before lexicons existed decode with none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        metadata = try container.decode(BookMetadata.self, forKey: .metadata)
        format = try container.decode(DocumentFormat.self, forKey: .format)
        chapters = try container.decode([Chapter].self, forKey: .chapters)
        pages = try container.decode([Page].self, forKey: .pages)
        cover = try container.decodeIfPresent(BookCover.self, forKey: .cover)
        lexicons = try container.decodeIfPresent([PronunciationLexicon].self, forKey: .lexicons) ?? []
    }
}
