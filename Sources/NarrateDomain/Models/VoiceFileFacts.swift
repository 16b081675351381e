/// A voice's file on disk (downloaded, or installed before): where it is, its size and digests.
public struct VoiceFileFacts: Sendable, Equatable {
    public var path: String
    public var bytes: Int64
    /// MD5 and SHA-256 of its bytes, in lowercase hex.
    public var md5: String
    public var sha256: String

    public init(path: String, bytes: Int64, md5: String, sha256: String) {
        self.path = path
        self.bytes = bytes
        self.md5 = md5
        self.sha256 = sha256
    }
}
