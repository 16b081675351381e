/// What an exported audio file says about itself (ID3 tags, MP4 metadata, chapter markers).
public struct AudioFileMetadata: Sendable, Hashable {
    /// A chapter marker inside one file (M4B).
    public struct ChapterMarker: Sendable, Hashable {
        public var title: String
        /// Where the chapter starts, in samples from the start of the file.
        public var startSample: Int

        public init(title: String, startSample: Int) {
            self.title = title
            self.startSample = startSample
        }
    }

    /// The file's own title (the chapter title, or the book title for a whole-book file).
    public var title: String
    /// The book's authors, joined.
    public var artist: String
    /// The book title.
    public var album: String
    /// 1-based position among the exported files.
    public var trackNumber: Int
    public var trackCount: Int
    public var year: String?
    public var language: String?
    public var cover: BookCover?
    public var chapters: [ChapterMarker]

    public init(
        title: String, artist: String, album: String, trackNumber: Int, trackCount: Int,
        year: String? = nil, language: String? = nil, cover: BookCover? = nil, chapters: [ChapterMarker] = []
    ) {
        self.title = title
        self.artist = artist
        self.album = album
        self.trackNumber = trackNumber
        self.trackCount = trackCount
        self.year = year
        self.language = language
        self.cover = cover
        self.chapters = chapters
    }
}
