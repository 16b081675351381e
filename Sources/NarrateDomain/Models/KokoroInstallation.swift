/// A Kokoro model and voices installed (`narrate voices install kokoro`).
public struct KokoroInstallation: Sendable, Equatable {
    /// The folder they are in (a voice folder's `kokoro/`).
    public var folder: String
    /// The model's file name.
    public var model: String
    public var modelSHA256: String
    /// Whether the same model was there already.
    public var modelWasInstalled: Bool
    /// The voices written (or found the same), by name.
    public var voices: [String]

    public init(folder: String, model: String, modelSHA256: String, modelWasInstalled: Bool, voices: [String]) {
        self.folder = folder
        self.model = model
        self.modelSHA256 = modelSHA256
        self.modelWasInstalled = modelWasInstalled
        self.voices = voices
    }
}
