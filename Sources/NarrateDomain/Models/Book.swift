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
    /// The book's own pronunciations: its PLS lexicons, then its inline `ssml:ph` marks as one
    /// lexicon (EPUB 3 text-to-speech). Empty for other formats and for books stored before.
    public var lexicons: [PronunciationLexicon]

    public init(
        metadata: BookMetadata, format: DocumentFormat, chapters: [Chapter] = [], pages: [Page], cover: BookCover? = nil,
        skipped: [SkippedMatter] = [], parserVersion: Int = 0, lexicons: [PronunciationLexicon] = []
    ) {
        self.parserVersion = parserVersion
        self.metadata = metadata
        self.format = format
        self.chapters = chapters
        self.pages = pages
        self.cover = cover
        self.skipped = skipped
        self.lexicons = lexicons
    }

    private enum CodingKeys: String, CodingKey {
        case metadata, format, chapters, pages, cover, skipped, parserVersion, lexicons
    }

    /// Books encoded before skipped matter, parser generations or lexicons existed decode with none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        metadata = try container.decode(BookMetadata.self, forKey: .metadata)
        format = try container.decode(DocumentFormat.self, forKey: .format)
        chapters = try container.decode([Chapter].self, forKey: .chapters)
        pages = try container.decode([Page].self, forKey: .pages)
        cover = try container.decodeIfPresent(BookCover.self, forKey: .cover)
        skipped = try container.decodeIfPresent([SkippedMatter].self, forKey: .skipped) ?? []
        parserVersion = try container.decodeIfPresent(Int.self, forKey: .parserVersion) ?? 0
        lexicons = try container.decodeIfPresent([PronunciationLexicon].self, forKey: .lexicons) ?? []
    }
}
