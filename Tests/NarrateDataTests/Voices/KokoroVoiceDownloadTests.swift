import Foundation
import NarrateDomain
import Testing

@testable import NarrateData

/// Kokoro voices fetched from a local HTTP server laid out as kokoro-onnx's release files and as
/// onnx-community's repository: the voices land as raw packs beside the model, a cut download
/// resumes, a model over the limit or with the wrong SHA-256 is refused, and nothing is left
/// half-installed.
@Suite(.serialized) struct KokoroVoiceDownloadTests {
    let served: String
    let target: String
    let server: PiperVoicesServer
    let sut = DownloadKokoroVoicesUseCase(downloads: PiperVoiceDownloader(), installer: KokoroVoiceInstaller())
    static let model = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })

    init() throws {
        served = try KokoroFixture.folder("kokoro-served")
        target = try KokoroFixture.folder("kokoro-download")
        // kokoro-onnx's release: the models and one .npz (named .bin) of every voice.
        let release = served + "/release"
        try FileManager.default.createDirectory(atPath: release, withIntermediateDirectories: true)
        try Self.model.write(to: URL(fileURLWithPath: release + "/kokoro-v1.0.onnx"))
        try Data("the int8 model".utf8).write(to: URL(fileURLWithPath: release + "/kokoro-v1.0.int8.onnx"))
        try KokoroFixture.writeArchive([
            ("af_heart", KokoroFixture.numpy(KokoroFixture.rows(510, seed: 1), shape: [510, 1, 256])),
            ("bf_emma", KokoroFixture.numpy(KokoroFixture.rows(510, seed: 2), shape: [510, 1, 256])),
        ], to: release + "/voices-v1.0.bin")
        // onnx-community's: onnx/model.onnx and voices/<name>.bin.
        let community = served + "/community"
        try FileManager.default.createDirectory(atPath: community + "/onnx", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: community + "/voices", withIntermediateDirectories: true)
        try Self.model.write(to: URL(fileURLWithPath: community + "/onnx/model.onnx"))
        try KokoroFixture.rows(510, seed: 5).write(to: URL(fileURLWithPath: community + "/voices/am_adam.bin"))
        try KokoroFixture.rows(510, seed: 6).write(to: URL(fileURLWithPath: community + "/voices/af_sky.bin"))
        server = try PiperVoicesServer(root: served)
    }

    func cleanUp() {
        try? FileManager.default.removeItem(atPath: served)
        try? FileManager.default.removeItem(atPath: target)
    }

    @Test("Given kokoro-onnx's layout, when every voice is installed, then the packs are raw beside the model and nothing is left staged")
    func releaseLayout() async throws {
        defer { cleanUp() }
        // When
        let installation = try await sut.execute(KokoroDownloadRequest(url: server.baseURL + "/release", directory: target)) { _ in }
        // Then
        #expect(installation.model == "kokoro-v1.0.onnx" && installation.voices == ["af_heart", "bf_emma"])
        #expect(FileManager.default.contents(atPath: target + "/kokoro/kokoro-v1.0.onnx") == Self.model)
        #expect(FileManager.default.contents(atPath: target + "/kokoro/voices/bf_emma.bin") == KokoroFixture.rows(510, seed: 2))
        #expect(try FileManager.default.contentsOfDirectory(atPath: target + "/kokoro/.download").isEmpty)
        #expect(KokoroVoiceCatalog(directories: [target]).installed().map(\.name) == ["af_heart", "bf_emma"])
    }

    @Test("Given onnx-community's layout, when voices are named, then only they are fetched; without names it asks for them")
    func communityLayout() async throws {
        defer { cleanUp() }
        let url = server.baseURL + "/community"
        await #expect(throws: KokoroInstallError.voicesNotNamed(url: url)) { _ = try await sut.execute(KokoroDownloadRequest(url: url, directory: target)) { _ in } }
        let installation = try await sut.execute(KokoroDownloadRequest(url: url, directory: target, voices: ["am_adam"])) { _ in }
        #expect(installation.model == "model.onnx" && installation.voices == ["am_adam"])
        #expect(!server.requests.contains { $0.contains("af_sky") })
        #expect(FileManager.default.contents(atPath: target + "/kokoro/voices/am_adam.bin") == KokoroFixture.rows(510, seed: 5))
    }

    @Test("Given a model cut short, when installed again, then the download resumes where it stopped")
    func resumes() async throws {
        defer { cleanUp() }
        let url = server.baseURL + "/release"
        try server.cutShort("kokoro-v1.0.onnx", after: 50_000)
        await #expect(throws: KokoroInstallError.self) { _ = try await sut.execute(KokoroDownloadRequest(url: url, directory: target)) { _ in } }
        #expect(!FileManager.default.fileExists(atPath: target + "/kokoro/kokoro-v1.0.onnx"), "nothing under a final name")
        // What was written before the cut (the client may drop bytes it had not handed on yet).
        let part = target + "/kokoro/.download/.kokoro-v1.0.onnx.part"
        let kept = try #require(try FileManager.default.attributesOfItem(atPath: part)[.size] as? Int)
        #expect(kept > 0 && kept <= 50_000)
        let installation = try await sut.execute(KokoroDownloadRequest(url: url, directory: target)) { _ in }
        #expect(installation.voices == ["af_heart", "bf_emma"])
        #expect(server.requests.contains("GET /release/kokoro-v1.0.onnx bytes=\(kept)-"), "\(server.requests)")
        #expect(FileManager.default.contents(atPath: target + "/kokoro/kokoro-v1.0.onnx") == Self.model)
    }

    @Test("Given a model over the size limit or not matching its SHA-256, when installed, then it is refused and nothing is installed")
    func refusals() async throws {
        defer { cleanUp() }
        let url = server.baseURL + "/release"
        await #expect {
            _ = try await sut.execute(KokoroDownloadRequest(url: url, directory: target, maxModelBytes: 1000)) { _ in }
        } throws: { error in
            guard case .download(.tooLarge) = error as? KokoroInstallError else { return false }
            return true
        }
        await #expect {
            _ = try await sut.execute(KokoroDownloadRequest(url: url, directory: target, model: "kokoro-v1.0.int8.onnx")) { _ in }
        } throws: { error in
            guard case let .checksumMismatch(file, expected, _) = error as? KokoroInstallError else { return false }
            return file == "kokoro-v1.0.int8.onnx" && expected.hasPrefix("6e742170")
        }
        #expect(!FileManager.default.fileExists(atPath: target + "/kokoro/voices"))
    }

    @Test("Given a URL with neither layout, or a voice name that is no voice's, when installed, then one clear error each")
    func badRequests() async throws {
        defer { cleanUp() }
        let url = server.baseURL + "/nothing"
        await #expect(throws: KokoroInstallError.unknownLayout(url: url)) { _ = try await sut.execute(KokoroDownloadRequest(url: url, directory: target)) { _ in } }
        await #expect(throws: KokoroInstallError.invalidVoiceName("../../etc/passwd")) {
            _ = try await sut.execute(KokoroDownloadRequest(url: server.baseURL + "/community", directory: target, voices: ["../../etc/passwd"])) { _ in }
        }
        await #expect(throws: KokoroInstallError.unknownVoices(["af_nobody"], available: ["af_heart", "bf_emma"])) {
            _ = try await sut.execute(KokoroDownloadRequest(url: server.baseURL + "/release", directory: target, voices: ["af_nobody"])) { _ in }
        }
    }
}
