import Foundation
import NarrateDomain
import Testing

@testable import NarrateData

/// Installed Kokoro voices: listed with language and gender, found by name or blend, a blend
/// kept to one model; and what identifies their audio (the cache key) and what the worker loads.
@Suite struct KokoroVoiceCatalogTests {
    let root: String
    let sut: KokoroVoiceCatalog

    init() throws {
        root = try KokoroFixture.folder("kokoro-catalog")
        try KokoroFixture.installed(in: root + "/first", voices: ["af_heart": 1, "bm_george": 2])
        try KokoroFixture.installed(in: root + "/second", model: "other.onnx", modelBytes: Data("another model".utf8), voices: ["af_heart": 9, "jf_alpha": 3])
        sut = KokoroVoiceCatalog(directories: [root + "/first", root + "/second", root + "/none"])
    }

    @Test("Given two voice folders, when listed, then every voice appears once, the earlier folder's winning, with language and gender")
    func listsVoices() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let voices = sut.installed()
        #expect(voices.map(\.name) == ["af_heart", "bm_george", "jf_alpha"])
        let heart = try #require(voices.first)
        #expect(heart.kokoro?.pack == root + "/first/kokoro/voices/af_heart.bin")
        #expect(heart.languages == ["en-us"])
        #expect(heart.gender == .female)
        #expect(voices[1].languages == ["en-gb"] && voices[1].gender == .male)
        #expect(heart.preset?.kokoro?.model == root + "/first/kokoro/kokoro-test.onnx")
    }

    @Test("Given a voice's name, when found, then its profile speaks it with its folder's model in its language")
    func findsVoice() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let profile = try #require(try sut.profile(named: "bm_george"))
        #expect(profile.voice == "en-gb")
        #expect(profile.kokoro?.styles == [.init(name: "bm_george", pack: root + "/first/kokoro/voices/bm_george.bin", weight: 1)])
        #expect(profile.displayName == "bm_george")
        #expect(try sut.profile(named: "af_nobody") == nil, "one unknown name may be another engine's")
        #expect(try sut.profile(named: "en-us") == nil)
    }

    @Test("Given a blend of one model's voices, when found, then its styles carry the normalized weights and its name is canonical")
    func findsBlend() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let profile = try #require(try sut.profile(named: "af_heart(3)+bm_george(1)"))
        #expect(profile.kokoro?.styles.map(\.weight) == [0.75, 0.25])
        #expect(profile.displayName == "af_heart:0.75+bm_george:0.25")
        #expect(profile.voice == "en-us", "the first voice's language phonemizes")
    }

    @Test("Given a blend across models, or naming a voice not installed, when found, then it is refused in one line")
    func refusesBadBlends() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect {
            _ = try sut.profile(named: "bm_george+jf_alpha")
        } throws: { error in
            guard case let .voiceFailed(_, reason) = error as? SpeechError else { return false }
            return reason.contains("different Kokoro models")
        }
        #expect {
            _ = try sut.profile(named: "af_heart+af_hart2")
        } throws: { error in
            guard case let .voiceNotFound(name, _) = error as? SpeechError else { return false }
            return name == "af_hart2"
        }
    }

    @Test("Given a voice, when its cache identity is made, then it names the model's and packs' SHA-256, the weights and the speed, not paths")
    func identity() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let settings = try #require(try sut.profile(named: "af_heart:0.6+bm_george:0.4")?.kokoro)
        let model = try sut.model(at: settings.model)
        let packs = try sut.packs(of: settings)
        let identity = model.identity(settings, packs: packs, speed: 1.0)
        #expect(identity.contains("model-sha256=\(model.digest)"))
        #expect(identity.contains(packs[0].digest + ":0.59999999999999998"))
        #expect(identity.contains("speed=1 "))
        #expect(!identity.contains(root))
        let slower = model.identity(settings, packs: packs, speed: 0.8)
        #expect(slower != identity)
        let other = model.identity(try #require(try sut.profile(named: "af_heart:0.5+bm_george:0.5")?.kokoro), packs: try sut.packs(of: try #require(try sut.profile(named: "af_heart:0.5+bm_george:0.5")?.kokoro)), speed: 1.0)
        #expect(other != identity)
    }

    @Test("Given a voice, when its worker description is made, then it holds the model, language, vocabulary, packs with weights, speed and pauses")
    func workerDescription() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let settings = try #require(try sut.profile(named: "af_heart")?.kokoro)
        let model = try sut.model(at: settings.model)
        let fields = model.workerDescription(settings, packs: try sut.packs(of: settings), speed: 1.5, modelFolder: "/cache/models").split(separator: "\u{1F}", omittingEmptySubsequences: false)
        #expect(fields.count == 10)
        #expect(fields[0] == "kokoro" && fields[1] == settings.model && fields[2] == "en-us" && fields[3] == "af_heart")
        #expect(fields[4].hasPrefix("20=16,21=5,"))
        #expect(fields[5] == "1\u{1D}" + root + "/first/kokoro/voices/af_heart.bin")
        #expect(fields[6] == "1.5" && fields[7] == "0.25" && fields[8] == "0.10000000000000001")
        #expect(fields[9] == "/cache/models/\(model.digest)-kokoro")
    }

    @Test("Given a model whose file changed, when loaded again, then it is hashed again")
    func rehashesChangedModel() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/first/kokoro/kokoro-test.onnx"
        let before = try sut.model(at: path).digest
        try Data("a changed model, longer".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try sut.model(at: path).digest != before)
        #expect(throws: SpeechError.self) { try sut.model(at: root + "/missing.onnx") }
    }
}
