/// What to fetch over HTTP(S) and where: `narrate voices install kokoro [VOICE…] [--from URL]`.
public struct KokoroDownloadRequest: Sendable, Equatable {
    /// The folder URL of a published layout: kokoro-onnx's release files (`kokoro-v1.0.onnx`,
    /// `kokoro-v1.0.int8.onnx`, `voices-v1.0.bin`) or onnx-community's repository (`onnx/model.onnx`
    /// and a `voices/<name>.bin` per voice).
    public var url: String
    /// The voice folder; the files go to its `kokoro/`.
    public var directory: String
    /// The voices to install (kokoro-onnx's layout: all when empty; onnx-community's: required).
    public var voices: [String]
    /// The model's file in the layout (default: `kokoro-v1.0.onnx`, or `onnx/model.onnx`).
    public var model: String?
    /// The model's SHA-256, when the user knows it (a model whose SHA-256 Narrate knows is
    /// checked against it anyway).
    public var sha256: String?
    public var maxModelBytes: Int64

    public init(url: String = defaultURL, directory: String, voices: [String] = [], model: String? = nil, sha256: String? = nil, maxModelBytes: Int64 = VoiceInstallRequest.defaultMaxModelBytes) {
        self.url = url
        self.directory = directory
        self.voices = voices
        self.model = model
        self.sha256 = sha256
        self.maxModelBytes = maxModelBytes
    }

    /// Where kokoro-onnx publishes the model and voices.
    public static let defaultURL = "https://github.com/thewh1teagle/kokoro-onnx/releases/download/model-files-v1.0"

    /// The published models whose SHA-256 Narrate knows, by file name.
    public static let knownDigests: [String: String] = [
        "kokoro-v1.0.int8.onnx": "6e742170d309016e5891a994e1ce1559c702a2ccd0075e67ef7157974f6406cb",
    ]
}
