/// The files of a Kokoro installation: reading a source folder and writing a voice folder's
/// `kokoro/`.
public protocol KokoroInstallRepositoryContract: Sendable {
    /// The source folder's model and packs, read and checked.
    func read(_ request: KokoroInstallRequest) throws(KokoroInstallError) -> KokoroInstallSource
    /// Writes them (each file under a temporary name, then renamed into place; the model
    /// first, the packs after, so a listed voice always has its model).
    func write(_ source: KokoroInstallSource, voices: [String], into directory: String) throws(KokoroInstallError) -> KokoroInstallation
}

/// What a source folder holds: one model and the voices its packs carry.
public struct KokoroInstallSource: Sendable, Equatable {
    public var folder: String
    public var model: String
    /// Every voice found, by name (a name found twice is taken from the first pack read).
    public var voices: [String]

    public init(folder: String, model: String, voices: [String]) {
        self.folder = folder
        self.model = model
        self.voices = voices
    }
}
