/// Installing a Piper voice into a voice folder.
public protocol InstallVoiceUseCaseContract: Sendable {
    /// Fetches the voice `request.source` names (a name in the repository, or a model's URL),
    /// checks it, and gives its files their final names, the model last.
    /// - Parameter progress: told as each file's bytes arrive.
    /// - Returns: the voice installed, or found installed already with the same files.
    /// - Throws: `VoiceInstallError`; nothing is then left under the voice's final names.
    func execute(
        _ request: VoiceInstallRequest, progress: @escaping @Sendable (VoiceDownloadProgress) -> Void
    ) async throws(VoiceInstallError) -> VoiceInstallation
}

/// Resolves the voice's files (from `voices.json`, with sizes and MD5 checksums, else from the
/// repository's layout or the model's URL), skips a voice installed already with the same
/// files, then downloads the configuration and checks it before the model, verifies both and
/// moves them into place: the configuration first and the model last, so that a voice is
/// listed only once it is whole.
public struct InstallVoiceUseCase: InstallVoiceUseCaseContract {
    private let repository: any VoiceInstallRepositoryContract

    public init(repository: any VoiceInstallRepositoryContract) {
        self.repository = repository
    }

    public func execute(
        _ request: VoiceInstallRequest, progress: @escaping @Sendable (VoiceDownloadProgress) -> Void
    ) async throws(VoiceInstallError) -> VoiceInstallation {
        let (name, model, config) = try await files(for: request)
        let directory = request.directory
        let modelPath = directory + "/" + model.fileName
        let verified = model.md5 != nil && config.md5 != nil
        try repository.prepare(directory: directory)

        if let installedModel = try await repository.installedFile(named: model.fileName, in: directory),
            let installedConfig = try await repository.installedFile(named: config.fileName, in: directory),
            try await matches(installedConfig, config), try await matches(installedModel, model)
        {
            let voice = try repository.voiceInfo(config: installedConfig.path, model: modelPath, name: name)
            return VoiceInstallation(name: name, directory: directory, voice: voice, modelSHA256: installedModel.sha256, checksumsVerified: verified, wasAlreadyInstalled: true)
        }

        // The configuration is small and says whether the model is worth fetching.
        let stagedConfig = try await repository.download(config, into: directory, progress: progress)
        try check(stagedConfig, against: config)
        let voice: PiperVoiceInfo
        do {
            voice = try repository.voiceInfo(config: stagedConfig.path, model: modelPath, name: name)
        } catch {
            repository.discard(stagedConfig)
            throw error
        }
        let stagedModel: VoiceFileFacts
        do {
            stagedModel = try await repository.download(model, into: directory, progress: progress)
            try check(stagedModel, against: model)
        } catch {
            // The model's part stays for a resume; the small configuration is fetched again.
            repository.discard(stagedConfig)
            throw error
        }
        try repository.moveIntoPlace(stagedConfig, as: config.fileName, in: directory)
        try repository.moveIntoPlace(stagedModel, as: model.fileName, in: directory)
        return VoiceInstallation(name: name, directory: directory, voice: voice, modelSHA256: stagedModel.sha256, checksumsVerified: verified, wasAlreadyInstalled: false)
    }

    /// The voice's name, then its model and configuration to fetch.
    private func files(for request: VoiceInstallRequest) async throws(VoiceInstallError) -> (String, VoiceDownloadFile, VoiceDownloadFile) {
        let maxConfig = min(VoiceInstallRequest.maxConfigBytes, request.maxModelBytes)
        switch try VoiceInstallSource.parse(request.source) {
        case let .url(model, config, name):
            return (
                name, VoiceDownloadFile(url: model, fileName: name + ".onnx", maxBytes: request.maxModelBytes),
                VoiceDownloadFile(url: config, fileName: name + ".onnx.json", maxBytes: maxConfig)
            )
        case let .name(wanted):
            let base = Self.trimmed(request.repositoryURL)
            guard let index = try await repository.index(repositoryURL: base) else {
                // No voices.json: the repository's layout gives the paths, with no checksums.
                guard let path = VoiceInstallSource.layoutPath(of: wanted) else { throw .invalidSource(request.source) }
                return (
                    wanted, VoiceDownloadFile(url: base + "/" + path, fileName: wanted + ".onnx", maxBytes: request.maxModelBytes),
                    VoiceDownloadFile(url: base + "/" + path + ".json", fileName: wanted + ".onnx.json", maxBytes: maxConfig)
                )
            }
            let key = index[wanted] != nil ? wanted : index.keys.first { $0.lowercased() == wanted.lowercased() }
            guard let key, let entry = index[key] else {
                throw .unknownVoice(name: wanted, suggestions: NameSuggester.suggestions(for: wanted, among: index.keys.sorted()), repository: base)
            }
            guard VoiceInstallSource.isFileName(key),
                let modelPath = entry.files.keys.sorted().first(where: { $0.hasSuffix(".onnx") }),
                let configPath = entry.files.keys.sorted().first(where: { $0.hasSuffix(".onnx.json") }),
                let modelFacts = entry.files[modelPath], let configFacts = entry.files[configPath]
            else {
                throw .invalidIndex(url: base + "/voices.json", reason: "the entry '\(key)' lacks an .onnx model or its .onnx.json")
            }
            let model = VoiceDownloadFile(url: base + "/" + modelPath, fileName: key + ".onnx", expectedBytes: modelFacts.bytes, md5: modelFacts.md5.lowercased(), maxBytes: request.maxModelBytes)
            let config = VoiceDownloadFile(url: base + "/" + configPath, fileName: key + ".onnx.json", expectedBytes: configFacts.bytes, md5: configFacts.md5.lowercased(), maxBytes: maxConfig)
            // Refused before a byte is fetched when the list already says it is too big.
            for file in [config, model] where file.expectedBytes.map({ $0 > file.maxBytes }) == true {
                throw .tooLarge(url: file.url, bytes: file.expectedBytes, limit: file.maxBytes)
            }
            return (key, model, config)
        }
    }

    /// Whether an installed file is the one that would be fetched: same MD5 when the list gives
    /// one, else same size (from the list, else from the server).
    private func matches(_ installed: VoiceFileFacts, _ file: VoiceDownloadFile) async throws(VoiceInstallError) -> Bool {
        if let md5 = file.md5 { return installed.md5 == md5 && (file.expectedBytes ?? installed.bytes) == installed.bytes }
        if let bytes = file.expectedBytes { return bytes == installed.bytes }
        guard let remote = try await repository.remoteSize(of: file.url) else { return false }
        return remote == installed.bytes
    }

    /// Throws, after deleting the staging file, when it is not what the list says.
    private func check(_ staged: VoiceFileFacts, against file: VoiceDownloadFile) throws(VoiceInstallError) {
        if let expected = file.expectedBytes, expected != staged.bytes {
            repository.discard(staged)
            throw .sizeMismatch(file: file.fileName, expected: expected, actual: staged.bytes)
        }
        if let md5 = file.md5, md5 != staged.md5 {
            repository.discard(staged)
            throw .checksumMismatch(file: file.fileName, expected: md5, actual: staged.md5)
        }
    }

    private static func trimmed(_ url: String) -> String {
        var url = url
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }
}
