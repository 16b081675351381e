/// How far the download of one of a voice's files has come; reported as bytes arrive.
public struct VoiceDownloadProgress: Sendable, Equatable {
    /// The file's final name (`en_US-lessac-medium.onnx`).
    public var file: String
    /// Bytes on disk so far, those of an earlier, resumed run included.
    public var bytesDone: Int64
    /// The file's whole size, when the server or the repository says.
    public var bytesTotal: Int64?
    /// Bytes already on disk when this run started on the file (a resumed download).
    public var resumedFrom: Int64
    /// Whether the file is whole.
    public var isFinished: Bool

    public init(file: String, bytesDone: Int64, bytesTotal: Int64?, resumedFrom: Int64 = 0, isFinished: Bool = false) {
        self.file = file
        self.bytesDone = bytesDone
        self.bytesTotal = bytesTotal
        self.resumedFrom = resumedFrom
        self.isFinished = isFinished
    }
}
