import Foundation
import NarrateDomain
import Testing

@testable import NarrateData

/// The repository opens a model named by path only when the caller says a file may be named
/// (`VoiceNaming.catalogOrFile`, the local user); under `.catalog` it finds installed voices by
/// name in the voice folders alone.
@Suite struct VoiceRepositoryNamingTests {
    let root: String
    let sut: VoiceRepository

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("narrate-naming-\(UUID().uuidString)").path
        for folder in ["voices", "elsewhere"] {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        for model in ["voices/en_US-test-medium.onnx", "elsewhere/joe.onnx"] {
            try PiperVoiceFixture.model.write(to: URL(fileURLWithPath: root + "/" + model))
            try PiperVoiceFixture.config.write(to: URL(fileURLWithPath: root + "/" + model + ".json"))
        }
        try PiperVoiceFixture.model.write(to: URL(fileURLWithPath: root + "/elsewhere/junk.onnx"))
        sut = VoiceRepository(presetDirectories: [root + "/voices"]) { () throws(SpeechError) in ([], []) }
    }

    @Test("Given catalog naming, when a real model outside the voice folders is named by path, then it is unknown and not loaded")
    func catalogNamingFindsNoPath() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        for name in [root + "/elsewhere/joe.onnx", root + "/voices/en_US-test-medium.onnx", root + "/elsewhere/junk.onnx", root + "/elsewhere/none.onnx"] {
            await #expect(throws: SpeechError.self) { _ = try await sut.profile(named: name, naming: .catalog) }
            do {
                _ = try await sut.profile(named: name, naming: .catalog)
            } catch {
                guard case let .voiceNotFound(shown, _) = error else {
                    Issue.record("\(name): \(error)")
                    continue
                }
                #expect(shown == name, "the repository names what it was given; the use case decides what a client sees")
            }
        }
    }

    @Test("Given catalog naming, when the installed voice is named, then it is found in its voice folder")
    func catalogNamingFindsInstalledVoice() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let profile = try await sut.profile(named: "en_US-test-medium", naming: .catalog)
        #expect(profile.piper?.model == root + "/voices/en_US-test-medium.onnx")
    }

    @Test("Given file naming, when a model is named by path, then it is loaded from there, and a model without its configuration fails by its name")
    func fileNamingLoadsPaths() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let profile = try await sut.profile(named: root + "/elsewhere/joe.onnx", naming: .catalogOrFile)
        #expect(profile.piper?.model == root + "/elsewhere/joe.onnx")
        await #expect {
            _ = try await sut.profile(named: root + "/elsewhere/junk.onnx", naming: .catalogOrFile)
        } throws: { error in
            guard case let .voiceFailed(voice, _)? = error as? SpeechError else { return false }
            return voice == "junk"
        }
    }
}
