import Foundation
import NarrateDomain
import Testing

@testable import NarrateData

/// Installing from a local folder: the model copied, each voice of an `.npz` (whatever its
/// suffix) or raw `.bin` written as a raw pack, nothing half-written, and one line for each
/// thing wrong.
@Suite struct KokoroVoiceInstallerTests {
    let source: String
    let target: String
    let sut = KokoroVoiceInstaller()

    init() throws {
        source = try KokoroFixture.folder("kokoro-source")
        target = try KokoroFixture.folder("kokoro-target")
        try Data("model bytes".utf8).write(to: URL(fileURLWithPath: source + "/kokoro-v1.0.int8.onnx"))
        try KokoroFixture.writeArchive([
            ("af_heart", KokoroFixture.numpy(KokoroFixture.rows(510, seed: 1), shape: [510, 1, 256])),
            ("bf_emma", KokoroFixture.numpy(KokoroFixture.rows(510, seed: 2), shape: [510, 1, 256])),
        ], to: source + "/voices-v1.0.bin", compressed: true)
        try KokoroFixture.rows(510, seed: 3).write(to: URL(fileURLWithPath: source + "/am_adam.bin"))
        try Data("ignored".utf8).write(to: URL(fileURLWithPath: source + "/README.md"))
    }

    func cleanUp() {
        try? FileManager.default.removeItem(atPath: source)
        try? FileManager.default.removeItem(atPath: target)
    }

    @Test("Given a folder with a model, an .npz named .bin and a raw pack, when installed, then every voice is a raw pack beside the model")
    func installsEverything() throws {
        defer { cleanUp() }
        let request = KokoroInstallRequest(source: source, directory: target)
        let read = try sut.read(request)
        #expect(read.voices == ["af_heart", "am_adam", "bf_emma"])
        let installation = try sut.write(read, voices: read.voices, into: target)
        #expect(installation.folder == target + "/kokoro")
        #expect(installation.model == "kokoro-v1.0.int8.onnx" && !installation.modelWasInstalled)
        #expect(installation.voices == ["af_heart", "am_adam", "bf_emma"])
        #expect(FileManager.default.contents(atPath: target + "/kokoro/voices/bf_emma.bin") == KokoroFixture.rows(510, seed: 2))
        #expect(FileManager.default.contents(atPath: target + "/kokoro/voices/am_adam.bin") == KokoroFixture.rows(510, seed: 3))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: target + "/kokoro").filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty)
        let again = try sut.write(read, voices: ["af_heart"], into: target)
        #expect(again.modelWasInstalled && again.voices == ["af_heart"])
        #expect(KokoroVoiceCatalog(directories: [target]).installed().map(\.name) == ["af_heart", "am_adam", "bf_emma"])
    }

    @Test("Given the use case and voices named, when one is unknown, then nothing is written and the packs' voices are listed")
    func unknownVoice() throws {
        defer { cleanUp() }
        let useCase = InstallKokoroVoicesUseCase(repository: sut)
        #expect(throws: KokoroInstallError.unknownVoices(["af_nobody"], available: ["af_heart", "am_adam", "bf_emma"])) {
            try useCase.execute(KokoroInstallRequest(source: source, directory: target, voices: ["af_heart", "af_nobody"]))
        }
        #expect(!FileManager.default.fileExists(atPath: target + "/kokoro"))
        let chosen = try useCase.execute(KokoroInstallRequest(source: source, directory: target, voices: ["BF_EMMA"]))
        #expect(chosen.voices == ["bf_emma"])
    }

    @Test("Given folders without a model, with two, without packs, with a bad pack or a model over the limit, when read, then each is one clear error")
    func badSources() throws {
        defer { cleanUp() }
        let empty = try KokoroFixture.folder("kokoro-empty")
        defer { try? FileManager.default.removeItem(atPath: empty) }
        #expect(throws: KokoroInstallError.noModel(folder: empty)) { try sut.read(KokoroInstallRequest(source: empty, directory: target)) }
        #expect(throws: KokoroInstallError.unreadableSource(empty + "/none")) { try sut.read(KokoroInstallRequest(source: empty + "/none", directory: target)) }
        try Data("m".utf8).write(to: URL(fileURLWithPath: empty + "/a.onnx"))
        #expect(throws: KokoroInstallError.noVoices(folder: empty)) { try sut.read(KokoroInstallRequest(source: empty, directory: target)) }
        try Data(count: 1000).write(to: URL(fileURLWithPath: empty + "/af_bad.bin"))
        #expect { try sut.read(KokoroInstallRequest(source: empty, directory: target)) } throws: { error in
            guard case let .invalidFile(path, reason) = error as? KokoroInstallError else { return false }
            return path.hasSuffix("af_bad.bin") && reason.contains("not rows of 256")
        }
        try Data("m".utf8).write(to: URL(fileURLWithPath: empty + "/b.onnx"))
        #expect(throws: KokoroInstallError.severalModels(folder: empty, models: ["a.onnx", "b.onnx"])) { try sut.read(KokoroInstallRequest(source: empty, directory: target)) }
        #expect { try sut.read(KokoroInstallRequest(source: source, directory: target, maxModelBytes: 3)) } throws: { error in
            guard case let .invalidFile(_, reason) = error as? KokoroInstallError else { return false }
            return reason.contains("--max-size")
        }
    }

    @Test("Given a voice folder holding another model, when installing, then it is refused and nothing changes")
    func otherModel() throws {
        defer { cleanUp() }
        try KokoroFixture.installed(in: target, model: "other.onnx", voices: ["af_old": 1])
        let read = try sut.read(KokoroInstallRequest(source: source, directory: target))
        #expect(throws: KokoroInstallError.otherModelInstalled(installed: "other.onnx", folder: target + "/kokoro")) {
            try sut.write(read, voices: read.voices, into: target)
        }
        #expect(!FileManager.default.fileExists(atPath: target + "/kokoro/voices/af_heart.bin"))
    }
}
