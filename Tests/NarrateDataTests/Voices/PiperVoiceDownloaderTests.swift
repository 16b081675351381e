import Foundation
import NarrateDomain
import Testing

@testable import NarrateData

/// `PiperVoiceDownloader` under `InstallVoiceUseCase`, against a local server with the layout of
/// Piper's voices repository (`PiperVoicesServer`, `PiperVoiceFixture`).
@Suite struct PiperVoiceDownloaderTests {
    let served: TemporaryDirectory
    let destination: TemporaryDirectory
    let server: PiperVoicesServer
    let sut: InstallVoiceUseCase

    init() throws {
        served = try TemporaryDirectory()
        destination = try TemporaryDirectory()
        server = try PiperVoicesServer(root: served.path)
        // Generous: the client stops reading while the test's task waits for a thread, and in a
        // full run that wait passed 20 s once ("the server stopped sending"). The timeout test
        // uses a downloader of its own.
        sut = InstallVoiceUseCase(repository: PiperVoiceDownloader(connectTimeout: .seconds(300), readTimeout: .seconds(300)))
    }

    private var modelURL: String { server.baseURL + "/" + PiperVoiceFixture.modelPath }

    private func install(_ source: String = PiperVoiceFixture.name, from repository: String? = nil, maxModelBytes: Int64 = VoiceInstallRequest.defaultMaxModelBytes) async throws(VoiceInstallError) -> VoiceInstallation {
        let request = VoiceInstallRequest(source: source, repositoryURL: repository ?? server.baseURL, directory: destination.path + "/voices", maxModelBytes: maxModelBytes)
        return try await sut.execute(request) { _ in }
    }

    /// The files in the voice folder, hidden staging files included.
    private var installedFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: destination.path + "/voices")) ?? []).sorted()
    }

    /// The size of the model's staging file, if there is one.
    private var partSize: Int64? {
        (try? FileManager.default.attributesOfItem(atPath: destination.path + "/voices/.en_US-test-medium.onnx.part"))?[.size] as? Int64
    }

    private var finalFiles: [String] {
        [PiperVoiceFixture.name + ".onnx", PiperVoiceFixture.name + ".onnx.json"]
    }

    // MARK: - Installing

    @Test("A name is installed from the repository's voices.json, MD5s checked, and the voice catalog lists it")
    func installsByName() async throws {
        // Given
        try PiperVoiceFixture.publish(in: served.path)

        // When
        let installation = try await install()

        // Then
        #expect(installation.name == PiperVoiceFixture.name)
        #expect(installation.checksumsVerified)
        #expect(installation.modelSHA256 == PiperVoiceFixture.sha256(PiperVoiceFixture.model))
        #expect(installation.voice == PiperVoiceInfo(model: destination.path + "/voices/en_US-test-medium.onnx", quality: "medium", speakers: 1, sampleRate: 22_050))
        #expect(installedFiles == finalFiles, "no staging file is left")
        #expect(try Data(contentsOf: URL(fileURLWithPath: destination.path + "/voices/en_US-test-medium.onnx")) == PiperVoiceFixture.model)
        #expect(PiperVoiceCatalog(directories: [destination.path + "/voices"]).installed().map(\.name) == [PiperVoiceFixture.name])
    }

    @Test("A model's URL is installed with <URL>.json beside it")
    func installsByURL() async throws {
        // Given
        try PiperVoiceFixture.publish(in: served.path, withIndex: false)

        // When
        let installation = try await install(modelURL)

        // Then
        #expect(installation.name == PiperVoiceFixture.name)
        #expect(!installation.checksumsVerified)
        #expect(installation.modelSHA256 == PiperVoiceFixture.sha256(PiperVoiceFixture.model))
        #expect(installedFiles == finalFiles)
    }

    @Test("Without voices.json, a name is fetched from the repository's layout")
    func installsFromLayoutWithoutIndex() async throws {
        // Given
        try PiperVoiceFixture.publish(in: served.path, withIndex: false)

        // When
        let installation = try await install()

        // Then
        #expect(installation.modelSHA256 == PiperVoiceFixture.sha256(PiperVoiceFixture.model))
        #expect(server.requests.first == "GET /voices.json -")
        #expect(installedFiles == finalFiles)
    }

    @Test("A voice installed already with the same files is not fetched again")
    func alreadyInstalled() async throws {
        // Given
        try PiperVoiceFixture.publish(in: served.path)
        _ = try await install()
        let requestsBefore = server.requests.count

        // When
        let installation = try await install()

        // Then
        #expect(installation.wasAlreadyInstalled)
        #expect(installation.modelSHA256 == PiperVoiceFixture.sha256(PiperVoiceFixture.model))
        #expect(server.requests.dropFirst(requestsBefore) == ["GET /voices.json -"])
    }

    // MARK: - Resuming

    @Test("A download cut short keeps its part, and the next run resumes it with a Range request")
    func resumesAfterCutShortDownload() async throws {
        // Given
        try PiperVoiceFixture.publish(in: served.path)
        try server.cutShort("en_US-test-medium.onnx", after: 100_000)
        await #expect(throws: VoiceInstallError.self) { _ = try await install() }
        #expect(installedFiles == [".en_US-test-medium.onnx.part"], "only the model's part stays, under a name the catalog ignores")
        #expect(PiperVoiceCatalog(directories: [destination.path + "/voices"]).installed().isEmpty)
        // What was written before the cut (the client may drop bytes it had not handed on yet).
        let kept = try #require(partSize)
        #expect(kept > 0 && kept <= 100_000)

        // When
        let installation = try await install()

        // Then
        #expect(server.requests.last == "GET /\(PiperVoiceFixture.modelPath) bytes=\(kept)-")
        #expect(installation.modelSHA256 == PiperVoiceFixture.sha256(PiperVoiceFixture.model))
        #expect(installedFiles == finalFiles)
    }

    @Test("The error of a cut-short download says how far it came and to run again")
    func cutShortDownloadError() async throws {
        // Given
        try PiperVoiceFixture.publish(in: served.path)
        try server.cutShort("en_US-test-medium.onnx", after: 100_000)

        // When
        let error = await #expect(throws: VoiceInstallError.self) { _ = try await install() }

        // Then
        guard case let .interrupted(url, bytesDone, _) = error else {
            Issue.record("expected .interrupted, got \(String(describing: error))")
            return
        }
        #expect(url == modelURL)
        #expect(bytesDone > 0 && bytesDone <= 100_000)
        #expect(bytesDone == partSize, "the error counts what was kept")
        #expect(error?.description.contains("Run the same command again to resume") == true)
    }

    @Test("A server that ignores the range sends the whole file, and the download starts over")
    func startsOverWithoutRangeSupport() async throws {
        // Given
        try PiperVoiceFixture.publish(in: served.path)
        try server.cutShort("en_US-test-medium.onnx", after: 100_000)
        _ = try? await install()
        try server.ignoreRanges()

        // When
        let installation = try await install()

        // Then
        #expect(installation.modelSHA256 == PiperVoiceFixture.sha256(PiperVoiceFixture.model))
        #expect(try Data(contentsOf: URL(fileURLWithPath: destination.path + "/voices/en_US-test-medium.onnx")) == PiperVoiceFixture.model)
    }

    // MARK: - Failures

    @Test("A model whose MD5 differs from voices.json's is refused and deleted; nothing is installed")
    func checksumMismatch() async throws {
        // Given
        try PiperVoiceFixture.publish(in: served.path, modelMD5: "0123456789abcdef0123456789abcdef")

        // When / Then
        await #expect(throws: VoiceInstallError.checksumMismatch(file: "en_US-test-medium.onnx", expected: "0123456789abcdef0123456789abcdef", actual: PiperVoiceFixture.md5(PiperVoiceFixture.model))) {
            _ = try await install()
        }
        #expect(installedFiles.isEmpty)
    }

    @Test("A missing file is a 404 naming its URL; nothing is left")
    func notFound() async throws {
        // Given
        try PiperVoiceFixture.publish(in: served.path)
        let missing = server.baseURL + "/en/en_US/none/medium/en_US-none-medium.onnx"

        // When
        let error = await #expect(throws: VoiceInstallError.notFound(url: missing + ".json")) { _ = try await install(missing) }

        // Then
        #expect(error?.description.hasPrefix("Not found (HTTP 404): \(missing).json.") == true)
        #expect(installedFiles.isEmpty)
    }

    @Test("A name voices.json does not list is refused with close names")
    func unknownName() async throws {
        // Given
        try PiperVoiceFixture.publish(in: served.path)

        // When / Then
        await #expect(throws: VoiceInstallError.unknownVoice(name: "en_US-tset-medium", suggestions: [PiperVoiceFixture.name], repository: server.baseURL)) {
            _ = try await install("en_US-tset-medium")
        }
    }

    @Test("A model larger than the limit is refused and its partial file deleted")
    func tooLarge() async throws {
        // Given
        try PiperVoiceFixture.publish(in: served.path, withIndex: false)

        // When / Then
        await #expect(throws: VoiceInstallError.tooLarge(url: modelURL, bytes: Int64(PiperVoiceFixture.model.count), limit: 100_000)) {
            _ = try await install(modelURL, maxModelBytes: 100_000)
        }
        #expect(installedFiles.isEmpty)
    }

    @Test("A configuration that is not a Piper voice's is refused before the model is fetched")
    func invalidConfiguration() async throws {
        // Given
        try PiperVoiceFixture.publish(in: served.path, withIndex: false)
        try Data(#"{"audio": {"sample_rate": 22050}, "espeak": {"voice": "en-us"}}"#.utf8).write(to: URL(fileURLWithPath: served.path + "/" + PiperVoiceFixture.configPath))

        // When / Then
        await #expect(throws: VoiceInstallError.invalidVoice(name: PiperVoiceFixture.name, reason: "its configuration en_US-test-medium.onnx.json lacks phoneme_id_map (is it a Piper voice's .onnx.json?)")) {
            _ = try await install(modelURL)
        }
        #expect(!server.requests.contains { $0.hasPrefix("GET /\(PiperVoiceFixture.modelPath) ") })
        #expect(installedFiles.isEmpty)
    }

    @Test("A folder that cannot be made is a write failure naming it")
    func writeFailure() async throws {
        // Given
        try PiperVoiceFixture.publish(in: served.path)
        try Data("a file".utf8).write(to: URL(fileURLWithPath: destination.path + "/voices"))

        // When
        let error = await #expect(throws: VoiceInstallError.self) { _ = try await install() }

        // Then
        #expect(error == .writeFailed(path: destination.path + "/voices", reason: "mkdir: Not a directory"))
    }

    @Test("A refused connection is reported as such")
    func connectionRefused() async throws {
        // Given
        let closed = try FaultyHTTPStub([.reset])
        let url = "http://127.0.0.1:\(closed.port)"
        closed.stop()

        // When / Then
        await #expect(throws: VoiceInstallError.unreachable(url: url + "/voices.json", reason: "the connection was refused")) {
            _ = try await install(from: url)
        }
    }

    @Test("A server error status is reported with its code")
    func serverError() async throws {
        // Given
        let stub = try FaultyHTTPStub([.status(500, body: "boom")])
        let url = "http://127.0.0.1:\(stub.port)"

        // When / Then
        await #expect(throws: VoiceInstallError.httpStatus(url: url + "/voices.json", status: 500)) {
            _ = try await install(from: url)
        }
    }

    @Test("A server that does not answer in time is a timeout")
    func timeout() async throws {
        // Given
        let stub = try FaultyHTTPStub([.delayed(seconds: 3, .status(200, body: "{}"))])
        let url = "http://127.0.0.1:\(stub.port)"
        let quick = InstallVoiceUseCase(repository: PiperVoiceDownloader(connectTimeout: .milliseconds(200), readTimeout: .milliseconds(300)))

        // When
        let error = await #expect(throws: VoiceInstallError.self) {
            _ = try await quick.execute(VoiceInstallRequest(source: PiperVoiceFixture.name, repositoryURL: url, directory: destination.path)) { _ in }
        }

        // Then
        guard case .timedOut(url: url + "/voices.json", _) = error else {
            Issue.record("expected .timedOut, got \(String(describing: error))")
            return
        }
    }
}
