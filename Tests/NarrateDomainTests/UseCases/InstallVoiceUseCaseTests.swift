import Synchronization
import Testing

@testable import NarrateDomain

@Suite struct InstallVoiceUseCaseTests {
    static let base = "http://voices.test/piper"
    static let folder = "/data/voices"
    static let name = "en_US-lessac-medium"
    static let modelPath = "en/en_US/lessac/medium/en_US-lessac-medium.onnx"
    static let entry = PiperVoiceIndexEntry(name: name, files: [
        modelPath: .init(bytes: 63_000_000, md5: "aaaa"),
        modelPath + ".json": .init(bytes: 4_800, md5: "CCCC"),
        "en/en_US/lessac/medium/MODEL_CARD": .init(bytes: 300, md5: "dddd"),
    ])
    static let index = [name: entry, "en_US-lessac-high": PiperVoiceIndexEntry(name: "en_US-lessac-high", files: [:]), "fr_FR-siwis-low": PiperVoiceIndexEntry(name: "fr_FR-siwis-low", files: [:])]
    static let stagedModel = VoiceFileFacts(path: folder + "/.en_US-lessac-medium.onnx.part", bytes: 63_000_000, md5: "aaaa", sha256: "5a5a")
    static let stagedConfig = VoiceFileFacts(path: folder + "/.en_US-lessac-medium.onnx.json.part", bytes: 4_800, md5: "cccc", sha256: "c5c5")
    static let info = PiperVoiceInfo(model: folder + "/en_US-lessac-medium.onnx", quality: "medium", speakers: 1, sampleRate: 22_050)

    let repositoryMock: VoiceInstallRepositoryMock
    let sut: InstallVoiceUseCase

    init() {
        repositoryMock = VoiceInstallRepositoryMock()
        repositoryMock.indexResult = .success(Self.index)
        repositoryMock.installedFileResults = [Self.name + ".onnx": .success(nil), Self.name + ".onnx.json": .success(nil)]
        repositoryMock.downloadResults = [Self.name + ".onnx": .success(Self.stagedModel), Self.name + ".onnx.json": .success(Self.stagedConfig)]
        repositoryMock.voiceInfoResult = .success(Self.info)
        sut = InstallVoiceUseCase(repository: repositoryMock)
    }

    private func request(_ source: String = name, maxModelBytes: Int64 = VoiceInstallRequest.defaultMaxModelBytes) -> VoiceInstallRequest {
        VoiceInstallRequest(source: source, repositoryURL: Self.base + "/", directory: Self.folder, maxModelBytes: maxModelBytes)
    }

    // MARK: - Installing

    @Test("A name is looked up in voices.json: the configuration is fetched and checked first, the model last, both with the listed sizes and MD5s")
    func installsByName() async throws {
        // When
        let installation = try await sut.execute(request()) { _ in }

        // Then
        #expect(installation == VoiceInstallation(name: Self.name, directory: Self.folder, voice: Self.info, modelSHA256: "5a5a", checksumsVerified: true, wasAlreadyInstalled: false))
        #expect(repositoryMock.downloadedFiles == [
            VoiceDownloadFile(url: Self.base + "/" + Self.modelPath + ".json", fileName: Self.name + ".onnx.json", expectedBytes: 4_800, md5: "cccc", maxBytes: VoiceInstallRequest.maxConfigBytes),
            VoiceDownloadFile(url: Self.base + "/" + Self.modelPath, fileName: Self.name + ".onnx", expectedBytes: 63_000_000, md5: "aaaa", maxBytes: VoiceInstallRequest.defaultMaxModelBytes),
        ])
        #expect(repositoryMock.calls == [
            "index \(Self.base)", "prepare \(Self.folder)", "installedFile \(Self.name).onnx",
            "download \(Self.name).onnx.json", "voiceInfo \(Self.stagedConfig.path)", "download \(Self.name).onnx",
            "move \(Self.stagedConfig.path) as \(Self.name).onnx.json", "move \(Self.stagedModel.path) as \(Self.name).onnx",
        ])
    }

    @Test("A name differing only in case installs under the repository's spelling")
    func nameIgnoresCase() async throws {
        // When
        let installation = try await sut.execute(request("EN_us-Lessac-MEDIUM")) { _ in }

        // Then
        #expect(installation.name == Self.name)
        #expect(repositoryMock.downloadedFiles.map(\.fileName) == [Self.name + ".onnx.json", Self.name + ".onnx"])
    }

    @Test("Without voices.json, a name gives the repository layout's paths, with no checksum")
    func fallsBackToLayout() async throws {
        // Given
        repositoryMock.indexResult = .success(nil)

        // When
        let installation = try await sut.execute(request()) { _ in }

        // Then
        #expect(repositoryMock.downloadedFiles.map(\.url) == [Self.base + "/" + Self.modelPath + ".json", Self.base + "/" + Self.modelPath])
        #expect(repositoryMock.downloadedFiles.allSatisfy { $0.md5 == nil && $0.expectedBytes == nil })
        #expect(repositoryMock.downloadedFiles.map(\.maxBytes) == [VoiceInstallRequest.maxConfigBytes, VoiceInstallRequest.defaultMaxModelBytes])
        #expect(installation.checksumsVerified == false)
    }

    @Test("A model's URL is fetched with <URL>.json beside it, the voice named after the file; no voices.json is asked for")
    func installsByURL() async throws {
        // Given
        let url = "https://example.org/voices/en_US-lessac-medium.onnx?download=true"

        // When
        let installation = try await sut.execute(request(url)) { _ in }

        // Then
        #expect(installation.name == Self.name)
        #expect(repositoryMock.downloadedFiles.map(\.url) == ["https://example.org/voices/en_US-lessac-medium.onnx.json?download=true", url])
        #expect(!repositoryMock.calls.contains { $0.hasPrefix("index") })
    }

    @Test("Progress reported by the downloads reaches the caller")
    func passesProgressOn() async throws {
        // Given
        let report = VoiceDownloadProgress(file: Self.name + ".onnx", bytesDone: 10, bytesTotal: 20)
        repositoryMock.progressToReport = [report]
        let received = Mutex<[VoiceDownloadProgress]>([])

        // When
        _ = try await sut.execute(request()) { progress in received.withLock { $0.append(progress) } }

        // Then
        #expect(received.withLock { $0 } == [report, report])
    }

    // MARK: - Already installed

    @Test("Files installed already with the listed MD5s are kept: nothing is downloaded")
    func alreadyInstalledByChecksum() async throws {
        // Given
        repositoryMock.installedFileResults = [
            Self.name + ".onnx": .success(VoiceFileFacts(path: Self.folder + "/en_US-lessac-medium.onnx", bytes: 63_000_000, md5: "aaaa", sha256: "5a5a")),
            Self.name + ".onnx.json": .success(VoiceFileFacts(path: Self.folder + "/en_US-lessac-medium.onnx.json", bytes: 4_800, md5: "cccc", sha256: "c5c5")),
        ]

        // When
        let installation = try await sut.execute(request()) { _ in }

        // Then
        #expect(installation.wasAlreadyInstalled)
        #expect(installation.modelSHA256 == "5a5a")
        #expect(repositoryMock.downloadedFiles.isEmpty)
        #expect(!repositoryMock.calls.contains { $0.hasPrefix("move") })
    }

    @Test("An installed model whose MD5 differs is downloaded again")
    func differentInstalledModelIsReplaced() async throws {
        // Given
        repositoryMock.installedFileResults = [
            Self.name + ".onnx": .success(VoiceFileFacts(path: Self.folder + "/en_US-lessac-medium.onnx", bytes: 63_000_000, md5: "0000", sha256: "0")),
            Self.name + ".onnx.json": .success(VoiceFileFacts(path: Self.folder + "/en_US-lessac-medium.onnx.json", bytes: 4_800, md5: "cccc", sha256: "c5c5")),
        ]

        // When
        let installation = try await sut.execute(request()) { _ in }

        // Then
        #expect(!installation.wasAlreadyInstalled)
        #expect(repositoryMock.downloadedFiles.count == 2)
    }

    @Test("From a URL, installed files are the same when their sizes are the server's", arguments: [(Int64(63_000_000), true), (Int64(62_000_000), false)])
    func alreadyInstalledBySize(remoteSize: Int64, same: Bool) async throws {
        // Given
        repositoryMock.remoteSizeResult = .success(remoteSize)
        repositoryMock.installedFileResults = [
            Self.name + ".onnx": .success(VoiceFileFacts(path: Self.folder + "/en_US-lessac-medium.onnx", bytes: 63_000_000, md5: "aaaa", sha256: "5a5a")),
            Self.name + ".onnx.json": .success(VoiceFileFacts(path: Self.folder + "/en_US-lessac-medium.onnx.json", bytes: 63_000_000, md5: "cccc", sha256: "c5c5")),
        ]

        // When
        let installation = try await sut.execute(request("https://example.org/en_US-lessac-medium.onnx")) { _ in }

        // Then
        #expect(installation.wasAlreadyInstalled == same)
        #expect(repositoryMock.downloadedFiles.isEmpty == same)
    }

    // MARK: - Failures

    @Test("A name voices.json lacks is refused with close names, before anything is fetched")
    func unknownNameSuggests() async throws {
        // When / Then
        await #expect(throws: VoiceInstallError.unknownVoice(name: "en_US-lesac-medium", suggestions: [Self.name, "en_US-lessac-high"], repository: Self.base)) {
            _ = try await sut.execute(request("en_US-lesac-medium")) { _ in }
        }
        #expect(repositoryMock.downloadedFiles.isEmpty)
    }

    @Test("Neither a name nor an http(s) URL of an .onnx is refused", arguments: ["../etc/passwd", "ftp://example.org/x.onnx", "https://example.org/voice.zip", "https://example.org/.onnx", ""])
    func invalidSource(source: String) async throws {
        // When / Then
        await #expect(throws: VoiceInstallError.invalidSource(source)) {
            _ = try await sut.execute(request(source)) { _ in }
        }
        #expect(repositoryMock.calls.isEmpty)
    }

    @Test("Without voices.json, a name not shaped lang_code-dataset-quality is refused")
    func malformedNameWithoutIndex() async throws {
        // Given
        repositoryMock.indexResult = .success(nil)

        // When / Then
        await #expect(throws: VoiceInstallError.invalidSource("lessac")) {
            _ = try await sut.execute(request("lessac")) { _ in }
        }
    }

    @Test("A model voices.json lists as larger than the limit is refused before a byte is fetched")
    func listedTooLarge() async throws {
        // When / Then
        await #expect(throws: VoiceInstallError.tooLarge(url: Self.base + "/" + Self.modelPath, bytes: 63_000_000, limit: 1_000_000)) {
            _ = try await sut.execute(request(maxModelBytes: 1_000_000)) { _ in }
        }
        #expect(repositoryMock.downloadedFiles.isEmpty)
    }

    @Test("A model whose MD5 differs from voices.json's is deleted with its configuration; nothing is moved into place")
    func checksumMismatch() async throws {
        // Given
        repositoryMock.downloadResults[Self.name + ".onnx"] = .success(VoiceFileFacts(path: Self.stagedModel.path, bytes: 63_000_000, md5: "bad", sha256: "5a5a"))

        // When / Then
        await #expect(throws: VoiceInstallError.checksumMismatch(file: Self.name + ".onnx", expected: "aaaa", actual: "bad")) {
            _ = try await sut.execute(request()) { _ in }
        }
        #expect(repositoryMock.calls.suffix(2) == ["discard \(Self.stagedModel.path)", "discard \(Self.stagedConfig.path)"])
        #expect(!repositoryMock.calls.contains { $0.hasPrefix("move") })
    }

    @Test("A file whose size differs from voices.json's is deleted; nothing is moved into place")
    func sizeMismatch() async throws {
        // Given
        repositoryMock.downloadResults[Self.name + ".onnx.json"] = .success(VoiceFileFacts(path: Self.stagedConfig.path, bytes: 10, md5: "cccc", sha256: "c5c5"))

        // When / Then
        await #expect(throws: VoiceInstallError.sizeMismatch(file: Self.name + ".onnx.json", expected: 4_800, actual: 10)) {
            _ = try await sut.execute(request()) { _ in }
        }
        #expect(repositoryMock.calls.last == "discard \(Self.stagedConfig.path)")
        #expect(repositoryMock.downloadedFiles.count == 1, "the model is not fetched")
    }

    @Test("A configuration that is not a Piper voice's is deleted and the model is never fetched")
    func invalidConfiguration() async throws {
        // Given
        repositoryMock.voiceInfoResult = .failure(.invalidVoice(name: Self.name, reason: "its phoneme_id_map has no id for '^'"))

        // When / Then
        await #expect(throws: VoiceInstallError.invalidVoice(name: Self.name, reason: "its phoneme_id_map has no id for '^'")) {
            _ = try await sut.execute(request()) { _ in }
        }
        #expect(repositoryMock.calls.last == "discard \(Self.stagedConfig.path)")
        #expect(repositoryMock.downloadedFiles.count == 1)
    }

    @Test("A model download that stops part way is reported; nothing is moved into place")
    func interruptedDownload() async throws {
        // Given
        let failure = VoiceInstallError.interrupted(url: Self.base + "/" + Self.modelPath, bytesDone: 1_000, reason: "the server closed the connection")
        repositoryMock.downloadResults[Self.name + ".onnx"] = .failure(failure)

        // When / Then
        await #expect(throws: failure) {
            _ = try await sut.execute(request()) { _ in }
        }
        #expect(!repositoryMock.calls.contains { $0.hasPrefix("move") })
    }

    @Test("A repository that cannot be reached is reported as it is")
    func propagatesIndexError() async throws {
        // Given
        repositoryMock.indexResult = .failure(.unreachable(url: Self.base + "/voices.json", reason: "the connection was refused"))

        // When / Then
        await #expect(throws: VoiceInstallError.unreachable(url: Self.base + "/voices.json", reason: "the connection was refused")) {
            _ = try await sut.execute(request()) { _ in }
        }
    }

    // MARK: - Layout and messages

    @Test("A name's path follows Piper's repository layout; other shapes have none")
    func layoutPaths() {
        #expect(VoiceInstallSource.layoutPath(of: "en_US-lessac-medium") == Self.modelPath)
        #expect(VoiceInstallSource.layoutPath(of: "de_DE-thorsten_emotional-medium") == "de/de_DE/thorsten_emotional/medium/de_DE-thorsten_emotional-medium.onnx")
        #expect(VoiceInstallSource.layoutPath(of: "lessac") == nil)
        #expect(VoiceInstallSource.layoutPath(of: "en_US--medium") == nil)
    }

    @Test("Every error says what to do")
    func messagesSayWhatToDo() {
        #expect(VoiceInstallError.unknownVoice(name: "x", suggestions: ["y"], repository: "r").description.contains("Did you mean y?"))
        #expect(VoiceInstallError.interrupted(url: "u", bytesDone: 2_500_000, reason: "reset").description.contains("2.5 MB"))
        #expect(VoiceInstallError.interrupted(url: "u", bytesDone: 1, reason: "reset").description.contains("again to resume"))
        #expect(VoiceInstallError.tooLarge(url: "u", bytes: nil, limit: 1_000).description.contains("1 kB"))
    }
}
