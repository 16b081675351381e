/// What to export and how.
public struct BookExportOptions: Sendable, Hashable {
    /// The folder the files go into; empty: a folder named after the book's title (what
    /// `ExportBookUseCase` makes of a reference).
    public var directory: String
    public var split: ExportSplit
    public var format: ExportFormat
    public var subtitles: SubtitleFormat?
    public var selection: ExportSelection
    public var shard: ExportShard?
    /// What a read-along EPUB (`format` `.epub`) highlights.
    public var granularity: ReadAlongGranularity
    /// The book's file, which a read-along EPUB of an EPUB book is made from (`nil` from a
    /// reference: the library's file of the book).
    public var sourcePath: String?
    /// Who reads the narration and each character's quotations (`--cast`); nil: the voice alone.
    public var cast: VoiceCast?

    public init(
        directory: String, split: ExportSplit = .chapter, format: ExportFormat = .wav, subtitles: SubtitleFormat? = nil, selection: ExportSelection = .all,
        shard: ExportShard? = nil, granularity: ReadAlongGranularity = .sentence, sourcePath: String? = nil,
        cast: VoiceCast? = nil
    ) {
        self.cast = cast
        self.directory = directory
        self.split = split
        self.format = format
        self.subtitles = subtitles
        self.selection = selection
        self.shard = shard
        self.granularity = granularity
        self.sourcePath = sourcePath
    }
}
