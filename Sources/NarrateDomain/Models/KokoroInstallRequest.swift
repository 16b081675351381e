/// What to install and where: `narrate voices install kokoro [VOICE…] --from DIR`.
public struct KokoroInstallRequest: Sendable, Equatable {
    /// The local folder holding a Kokoro model (`*.onnx`) and style packs (`*.npz`, or a raw
    /// `<voice>.bin` each; kokoro-onnx's `voices-v1.0.bin` is an `.npz`), and optionally its
    /// `vocab.json` or `config.json`.
    public var source: String
    /// The voice folder; the files go to its `kokoro/`.
    public var directory: String
    /// The voices to install (all the packs hold when empty).
    public var voices: [String]
    /// The largest model accepted.
    public var maxModelBytes: Int64

    public init(source: String, directory: String, voices: [String] = [], maxModelBytes: Int64 = VoiceInstallRequest.defaultMaxModelBytes) {
        self.source = source
        self.directory = directory
        self.voices = voices
        self.maxModelBytes = maxModelBytes
    }
}
