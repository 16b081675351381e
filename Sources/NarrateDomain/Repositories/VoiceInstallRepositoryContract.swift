/// Fetching a Piper voice's files into a voice folder: the repository's list, downloads that
/// resume, and the files' checks and moves. Downloads go to staging files the voice catalog
/// never lists; only `moveIntoPlace` gives a file its final name.
public protocol VoiceInstallRepositoryContract: Sendable {
    /// The voices a Piper voices repository's `voices.json` lists, by name; `nil` when the
    /// repository has no `voices.json` (HTTP 404).
    func index(repositoryURL: String) async throws(VoiceInstallError) -> [String: PiperVoiceIndexEntry]?

    /// The size the server gives for a file (an HTTP HEAD), `nil` when it does not say.
    func remoteSize(of url: String) async throws(VoiceInstallError) -> Int64?

    /// Makes the voice folder and its missing parents.
    func prepare(directory: String) throws(VoiceInstallError)

    /// The file of that name already in the folder, with its digests; `nil` when there is none.
    func installedFile(named fileName: String, in directory: String) async throws(VoiceInstallError) -> VoiceFileFacts?

    /// Downloads `file` into a staging file in `directory`, continuing what an interrupted run
    /// left there when the server allows, and refusing more than `file.maxBytes` bytes.
    /// - Parameter progress: told as bytes arrive.
    /// - Returns: the staging file, whole (its size and digests are not checked here).
    func download(
        _ file: VoiceDownloadFile, into directory: String, progress: @escaping @Sendable (VoiceDownloadProgress) -> Void
    ) async throws(VoiceInstallError) -> VoiceFileFacts

    /// Reads and checks a Piper voice's configuration.
    /// - Parameters:
    ///   - config: the configuration file to read.
    ///   - model: the model's installed path, for the result.
    /// - Throws: `VoiceInstallError.invalidVoice` saying what is wrong with it.
    func voiceInfo(config: String, model: String, name: String) throws(VoiceInstallError) -> PiperVoiceInfo

    /// Gives a staging file its final name in the folder, replacing a file of that name.
    func moveIntoPlace(_ file: VoiceFileFacts, as fileName: String, in directory: String) throws(VoiceInstallError)

    /// Deletes a staging file that failed its checks.
    func discard(_ file: VoiceFileFacts)
}
