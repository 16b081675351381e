/// How far an export has come; reported after every piece of text and every file.
public struct ExportProgress: Sendable, Equatable {
    public var filesDone: Int
    public var filesTotal: Int
    public var pagesDone: Int
    public var pagesTotal: Int
    public var chunksDone: Int
    public var chunksTotal: Int
    /// Seconds of audio produced so far.
    public var audioSeconds: Double
    /// The file just finished, if this report is about one.
    public var finishedFile: String?

    public init(filesDone: Int = 0, filesTotal: Int = 0, pagesDone: Int = 0, pagesTotal: Int = 0, chunksDone: Int = 0, chunksTotal: Int = 0, audioSeconds: Double = 0, finishedFile: String? = nil) {
        self.filesDone = filesDone
        self.filesTotal = filesTotal
        self.pagesDone = pagesDone
        self.pagesTotal = pagesTotal
        self.chunksDone = chunksDone
        self.chunksTotal = chunksTotal
        self.audioSeconds = audioSeconds
        self.finishedFile = finishedFile
    }
}
