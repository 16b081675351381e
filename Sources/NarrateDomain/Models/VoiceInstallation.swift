/// What `InstallVoiceUseCase` did: the voice now in the folder, and how its files were checked.
public struct VoiceInstallation: Sendable, Equatable {
    /// The name to pass to `--voice`.
    public var name: String
    /// The voice folder.
    public var directory: String
    /// What a listing shows of the voice (its `model` is the installed `.onnx`).
    public var voice: PiperVoiceInfo
    /// SHA-256 of the installed model, in lowercase hex.
    public var modelSHA256: String
    /// Whether the files were checked against MD5 checksums from the repository's `voices.json`.
    public var checksumsVerified: Bool
    /// Whether the same files were installed already, and nothing was downloaded.
    public var wasAlreadyInstalled: Bool

    public init(name: String, directory: String, voice: PiperVoiceInfo, modelSHA256: String, checksumsVerified: Bool, wasAlreadyInstalled: Bool) {
        self.name = name
        self.directory = directory
        self.voice = voice
        self.modelSHA256 = modelSHA256
        self.checksumsVerified = checksumsVerified
        self.wasAlreadyInstalled = wasAlreadyInstalled
    }
}
