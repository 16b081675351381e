/// What to install and where: `narrate voices install NAME|URL`.
public struct VoiceInstallRequest: Sendable, Equatable {
    /// A voice name (`en_US-lessac-medium`) or an http(s) URL of an `.onnx` model.
    public var source: String
    /// The Piper voices repository a name is looked up in (its root, where `voices.json` is).
    public var repositoryURL: String
    /// The voice folder the files go to; made when missing.
    public var directory: String
    /// The largest model accepted.
    public var maxModelBytes: Int64

    /// The largest configuration accepted (real ones are a few kilobytes).
    public static let maxConfigBytes: Int64 = 1 << 20
    /// The default limit on a model (Piper's "high" voices are about 115 MB).
    public static let defaultMaxModelBytes: Int64 = 1 << 30
    /// Where Piper's voices are published.
    public static let defaultRepositoryURL = "https://huggingface.co/rhasspy/piper-voices/resolve/v1.0.0"

    public init(source: String, repositoryURL: String = defaultRepositoryURL, directory: String, maxModelBytes: Int64 = defaultMaxModelBytes) {
        self.source = source
        self.repositoryURL = repositoryURL
        self.directory = directory
        self.maxModelBytes = maxModelBytes
    }
}
