/// One file of a voice to fetch, with what it must be.
public struct VoiceDownloadFile: Sendable, Equatable {
    /// Where it is fetched from.
    public var url: String
    /// Its name in the voice folder (`en_US-lessac-medium.onnx`).
    public var fileName: String
    /// Its size, when the repository lists it.
    public var expectedBytes: Int64?
    /// Its MD5 in lowercase hex, when the repository lists it.
    public var md5: String?
    /// The most bytes accepted: a larger file is refused.
    public var maxBytes: Int64

    public init(url: String, fileName: String, expectedBytes: Int64? = nil, md5: String? = nil, maxBytes: Int64) {
        self.url = url
        self.fileName = fileName
        self.expectedBytes = expectedBytes
        self.md5 = md5
        self.maxBytes = maxBytes
    }
}
