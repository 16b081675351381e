/// A voice as a Piper voices repository's `voices.json` lists it: its files, by path relative
/// to the repository's root, with their sizes and MD5 checksums.
public struct PiperVoiceIndexEntry: Sendable, Equatable {
    /// What `voices.json` says of one file.
    public struct File: Sendable, Equatable {
        public var bytes: Int64
        /// Lowercase hex.
        public var md5: String

        public init(bytes: Int64, md5: String) {
            self.bytes = bytes
            self.md5 = md5
        }
    }

    /// The voice's key in `voices.json` (`en_US-lessac-medium`).
    public var name: String
    /// By relative path (`en/en_US/lessac/medium/en_US-lessac-medium.onnx`).
    public var files: [String: File]

    public init(name: String, files: [String: File]) {
        self.name = name
        self.files = files
    }
}
