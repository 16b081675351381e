import NarrateDomain
import Synchronization

/// A `VoiceInstallRepositoryContract` answering from its results (failures by default; the
/// per-file ones fail for a file not set), recording every call in order in `calls`.
final class VoiceInstallRepositoryMock: VoiceInstallRepositoryContract {
    private struct State {
        var indexResult: Result<[String: PiperVoiceIndexEntry]?, VoiceInstallError> = .failure(.unreachable(url: "", reason: "VoiceInstallRepositoryMock.indexResult is not set"))
        var remoteSizeResult: Result<Int64?, VoiceInstallError> = .failure(.unreachable(url: "", reason: "VoiceInstallRepositoryMock.remoteSizeResult is not set"))
        var prepareResult: Result<Void, VoiceInstallError> = .success(())
        var installedFileResults: [String: Result<VoiceFileFacts?, VoiceInstallError>] = [:]
        var downloadResults: [String: Result<VoiceFileFacts, VoiceInstallError>] = [:]
        var voiceInfoResult: Result<PiperVoiceInfo, VoiceInstallError> = .failure(.invalidVoice(name: "", reason: "VoiceInstallRepositoryMock.voiceInfoResult is not set"))
        var moveResult: Result<Void, VoiceInstallError> = .success(())
        var progressToReport: [VoiceDownloadProgress] = []
        var calls: [String] = []
        var downloadedFiles: [VoiceDownloadFile] = []
    }

    private let state = Mutex(State())

    // MARK: - Configuration

    var indexResult: Result<[String: PiperVoiceIndexEntry]?, VoiceInstallError> {
        get { state.withLock { $0.indexResult } }
        set { state.withLock { $0.indexResult = newValue } }
    }

    var remoteSizeResult: Result<Int64?, VoiceInstallError> {
        get { state.withLock { $0.remoteSizeResult } }
        set { state.withLock { $0.remoteSizeResult = newValue } }
    }

    var prepareResult: Result<Void, VoiceInstallError> {
        get { state.withLock { $0.prepareResult } }
        set { state.withLock { $0.prepareResult = newValue } }
    }

    /// By file name.
    var installedFileResults: [String: Result<VoiceFileFacts?, VoiceInstallError>] {
        get { state.withLock { $0.installedFileResults } }
        set { state.withLock { $0.installedFileResults = newValue } }
    }

    /// By file name.
    var downloadResults: [String: Result<VoiceFileFacts, VoiceInstallError>] {
        get { state.withLock { $0.downloadResults } }
        set { state.withLock { $0.downloadResults = newValue } }
    }

    var voiceInfoResult: Result<PiperVoiceInfo, VoiceInstallError> {
        get { state.withLock { $0.voiceInfoResult } }
        set { state.withLock { $0.voiceInfoResult = newValue } }
    }

    var moveResult: Result<Void, VoiceInstallError> {
        get { state.withLock { $0.moveResult } }
        set { state.withLock { $0.moveResult = newValue } }
    }

    /// Reported through `progress` by every `download` call.
    var progressToReport: [VoiceDownloadProgress] {
        get { state.withLock { $0.progressToReport } }
        set { state.withLock { $0.progressToReport = newValue } }
    }

    // MARK: - Call tracking

    /// Every call, in order: "index URL", "remoteSize URL", "prepare DIR", "installedFile NAME",
    /// "download NAME", "voiceInfo CONFIG", "move PATH as NAME", "discard PATH".
    var calls: [String] { state.withLock { $0.calls } }
    var downloadedFiles: [VoiceDownloadFile] { state.withLock { $0.downloadedFiles } }

    // MARK: - VoiceInstallRepositoryContract

    func index(repositoryURL: String) async throws(VoiceInstallError) -> [String: PiperVoiceIndexEntry]? {
        try record("index \(repositoryURL)") { $0.indexResult }
    }

    func remoteSize(of url: String) async throws(VoiceInstallError) -> Int64? {
        try record("remoteSize \(url)") { $0.remoteSizeResult }
    }

    func prepare(directory: String) throws(VoiceInstallError) {
        try record("prepare \(directory)") { $0.prepareResult }
    }

    func installedFile(named fileName: String, in directory: String) async throws(VoiceInstallError) -> VoiceFileFacts? {
        try record("installedFile \(fileName)") {
            $0.installedFileResults[fileName] ?? .failure(.unreachable(url: fileName, reason: "VoiceInstallRepositoryMock.installedFileResults[\(fileName)] is not set"))
        }
    }

    func download(
        _ file: VoiceDownloadFile, into directory: String, progress: @escaping @Sendable (VoiceDownloadProgress) -> Void
    ) async throws(VoiceInstallError) -> VoiceFileFacts {
        state.withLock { $0.downloadedFiles.append(file) }
        for report in progressToReport { progress(report) }
        return try record("download \(file.fileName)") {
            $0.downloadResults[file.fileName] ?? .failure(.unreachable(url: file.url, reason: "VoiceInstallRepositoryMock.downloadResults[\(file.fileName)] is not set"))
        }
    }

    func voiceInfo(config: String, model: String, name: String) throws(VoiceInstallError) -> PiperVoiceInfo {
        try record("voiceInfo \(config)") { $0.voiceInfoResult }
    }

    func moveIntoPlace(_ file: VoiceFileFacts, as fileName: String, in directory: String) throws(VoiceInstallError) {
        try record("move \(file.path) as \(fileName)") { $0.moveResult }
    }

    func discard(_ file: VoiceFileFacts) {
        state.withLock { $0.calls.append("discard \(file.path)") }
    }

    private func record<T>(_ call: String, _ result: (State) -> Result<T, VoiceInstallError>) throws(VoiceInstallError) -> T {
        try state.withLock { state throws(VoiceInstallError) in
            state.calls.append(call)
            return try result(state).get()
        }
    }
}
