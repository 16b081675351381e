/// A piece of an export's text, small enough for one synthesis.
public struct ExportChunk: Sendable, Hashable {
    /// Index into the export's items (files).
    public var itemIndex: Int
    /// The page's 1-based index and label, for reports.
    public var pageIndex: Int
    public var pageLabel: String
    public var text: String
    /// Offset of the chunk in its file's text (pages joined by a blank line), in Unicode scalars.
    public var textOffset: Int
    /// Index into the item's `pages` of the page (or piece of a page, when chapters share it) holding the chunk.
    public var pageOffset: Int
    /// The cast's voice that reads the chunk, or nil for the export's voice.
    public var voice: VoiceProfile?

    public init(itemIndex: Int, pageIndex: Int, pageLabel: String, text: String, textOffset: Int, pageOffset: Int = 0, voice: VoiceProfile? = nil) {
        self.voice = voice
        self.itemIndex = itemIndex
        self.pageIndex = pageIndex
        self.pageLabel = pageLabel
        self.text = text
        self.textOffset = textOffset
        self.pageOffset = pageOffset
    }
}

/// A file an export wrote (or found already written).
public struct ExportedFile: Sendable, Hashable, Codable {
    public var number: Int
    public var fileName: String
    public var title: String
    public var subtitleFileName: String?
    public var pageLabels: [String]
    public var chapterTitles: [String]
    public var duration: Double
    public var sampleCount: Int
    public var byteCount: Int64
    public var cacheKeys: [String]
    /// Where each chapter that starts in this file starts, in seconds from the file's start, with
    /// its title (absent in manifests written before they were recorded).
    public var chapterStarts: [ChapterStart]?

    /// A chapter's start within a file.
    public struct ChapterStart: Sendable, Hashable, Codable {
        public var title: String
        public var seconds: Double

        public init(title: String, seconds: Double) {
            self.title = title
            self.seconds = seconds
        }
    }

    public init(number: Int, fileName: String, title: String, subtitleFileName: String?, pageLabels: [String], chapterTitles: [String], duration: Double, sampleCount: Int, byteCount: Int64, cacheKeys: [String], chapterStarts: [ChapterStart]? = nil) {
        self.chapterStarts = chapterStarts
        self.number = number
        self.fileName = fileName
        self.title = title
        self.subtitleFileName = subtitleFileName
        self.pageLabels = pageLabels
        self.chapterTitles = chapterTitles
        self.duration = duration
        self.sampleCount = sampleCount
        self.byteCount = byteCount
        self.cacheKeys = cacheKeys
    }
}

/// What an export did.
public struct ExportSummary: Sendable, Equatable {
    public var files: [ExportedFile]
    /// Files already complete from an earlier run, left untouched.
    public var skippedFiles: Int
    public var writtenFiles: Int

    public init(files: [ExportedFile], skippedFiles: Int, writtenFiles: Int) {
        self.files = files
        self.skippedFiles = skippedFiles
        self.writtenFiles = writtenFiles
    }
}
