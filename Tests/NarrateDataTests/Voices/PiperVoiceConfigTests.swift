import Foundation
import NarrateDomain
import Testing

@testable import NarrateData

/// A Piper voice's configuration and settings, with small files in a temporary folder.
@Suite struct PiperVoiceConfigTests {
    nonisolated(unsafe) static let config: [String: Any] = [
        "audio": ["sample_rate": 16_000, "quality": "low"],
        "espeak": ["voice": "de"],
        "inference": ["noise_scale": 0.5, "length_scale": 1.2, "noise_w": 0.7],
        "num_speakers": 3,
        "speaker_id_map": ["anna": 0, "bert": 1, "carl": 2],
        "phoneme_type": "espeak",
        "phoneme_id_map": ["^": [1], "$": [2], "_": [0], " ": [3], "a": [14], "ç": [40], "\u{0327}": [140], "c": [16], "aɪ": [161]],
        "language": ["code": "de_DE"],
    ]

    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory()
    }

    /// A voice `name` in the folder: a model of a few bytes and `config`.
    private func install(_ name: String, config: [String: Any] = Self.config, model: String = "not really a model") throws -> String {
        let path = folder.path + "/\(name).onnx"
        try Data(model.utf8).write(to: URL(fileURLWithPath: path))
        try JSONSerialization.data(withJSONObject: config).write(to: URL(fileURLWithPath: path + ".json"))
        return path
    }

    private func problem(with config: [String: Any]) throws -> String {
        let model = try install("broken", config: config)
        do {
            _ = try PiperVoice.load(model: model)
            return "no problem"
        } catch {
            return error.reason
        }
    }

    @Test("A configuration is read: rate, quality, speakers by name, languages from language.code")
    func readsConfiguration() throws {
        // Given
        let model = try install("de_DE-test-low")

        // When
        let voice = try PiperVoiceCatalog(directories: []).voice(model: model)
        let listed = PiperVoiceCatalog(directories: [folder.path]).installed()

        // Then
        #expect(voice.name == "de_DE-test-low")
        #expect(voice.info == PiperVoiceInfo(model: model, quality: "low", speakers: 3, speakerNames: ["anna", "bert", "carl"], sampleRate: 16_000))
        #expect(voice.modelDigest.count == 64 && voice.configDigest.count == 64)
        #expect(listed.map(\.name) == ["de_DE-test-low"])
        #expect(listed.first?.languages == ["de-de", "de"])
        #expect(listed.first?.preset == VoiceProfile(voice: "de", piper: PiperVoiceSettings(model: model)))
    }

    @Test("Damaged configurations are refused with what is wrong", arguments: [
        ("phoneme_id_map", "lacks phoneme_id_map"),
        ("espeak", "lacks espeak"),
        ("audio", "lacks audio"),
    ])
    func missingKeys(key: String, message: String) throws {
        var config = Self.config
        config[key] = nil
        #expect(try problem(with: config).contains(message))
    }

    @Test("A configuration that is not JSON, of another phoneme type, or without BOS is refused")
    func otherDamage() throws {
        // Given
        let model = try install("notjson")
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: model + ".json"))
        var text = Self.config
        text["phoneme_type"] = "text"
        var noBOS = Self.config
        noBOS["phoneme_id_map"] = ["$": [2], "_": [0]]

        // When / Then
        #expect(throws: SpeechError.self) { _ = try PiperVoiceCatalog(directories: []).voice(model: model) }
        do {
            _ = try PiperVoiceCatalog(directories: []).voice(model: model)
        } catch {
            #expect(error.description.contains("is not a Piper voice's JSON"))
        }
        #expect(try problem(with: text).contains("phonemes of type 'text'"))
        #expect(try problem(with: noBOS).contains("no id for '^'"))
    }

    @Test("The rate divides the length scale; speakers are checked against the model's")
    func resolvesSettings() throws {
        // Given
        let voice = try PiperVoice.load(model: try install("speakers"))
        let model = voice.modelPath

        // When
        let standard = try voice.resolve(VoiceProfile(voice: "de", piper: PiperVoiceSettings(model: model)))
        let faster = try voice.resolve(VoiceProfile(voice: "de", rate: 350, piper: PiperVoiceSettings(model: model, speaker: 2, noiseScale: 0, sentenceSilence: 0.5)))

        // Then
        #expect(standard == PiperVoice.Resolved(speaker: 0, noiseScale: 0.5, lengthScale: 1.2, noiseW: 0.7, silenceSamples: 0))
        #expect(faster == PiperVoice.Resolved(speaker: 2, noiseScale: 0, lengthScale: 0.6, noiseW: 0.7, silenceSamples: 8_000))
        #expect(throws: SpeechError.parameterOutOfRange(name: "speaker", value: 3, range: 0...2)) {
            _ = try voice.resolve(VoiceProfile(voice: "de", piper: PiperVoiceSettings(model: model, speaker: 3)))
        }
    }

    @Test("The worker's description: 14 fields, one-code-point ids only, NFD decompositions; the cache identity changes with every setting")
    func workerDescription() throws {
        // Given
        let voice = try PiperVoice.load(model: try install("described"))
        let resolved = try voice.resolve(VoiceProfile(voice: "de", piper: PiperVoiceSettings(model: voice.modelPath)))

        // When
        let fields = voice.workerDescription(resolved).split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
        var louder = resolved
        louder.noiseScale = 0.9

        // Then
        #expect(fields.count == 14)
        #expect(fields[13] == "")
        #expect(fields[0] == "piper" && fields[1] == voice.modelPath && fields[2] == "de" && fields[3] == "16000")
        #expect(fields[11].split(separator: ",").contains("e7=40"))   // ç, precomposed, is still a key
        #expect(!fields[11].contains("=161"))                         // "aɪ" is two code points: never looked up
        #expect(fields[12].split(separator: ",").contains("e7=63+327"))  // ç decomposes to c + U+0327
        #expect(voice.identity(resolved) != voice.identity(louder))
        #expect(voice.identity(resolved).contains(voice.modelDigest))
    }

    @Test("A changed model file is hashed again; an unchanged one is not read twice")
    func catalogNoticesChanges() throws {
        // Given
        let model = try install("changing", model: "first")
        let catalog = PiperVoiceCatalog(directories: [])
        let first = try catalog.voice(model: model)

        // When
        try Data("second, longer".utf8).write(to: URL(fileURLWithPath: model))
        let second = try catalog.voice(model: model)

        // Then
        #expect(first.modelDigest != second.modelDigest)
        #expect(try catalog.voice(model: model).modelDigest == second.modelDigest)
    }

    @Test("A preset names a Piper voice by its installed name or by a path beside it")
    func presetsNamePiperVoices() throws {
        // Given
        let model = try install("en_US-preset-medium")
        try Data(#"{"name": "reader", "voice": "en-us", "piper": {"model": "en_US-preset-medium", "speaker": 0, "lengthScale": 1.1}}"#.utf8)
            .write(to: URL(fileURLWithPath: folder.path + "/reader.json"))
        try Data(#"{"name": "relative", "voice": "en-us", "piper": {"model": "en_US-preset-medium.onnx"}}"#.utf8)
            .write(to: URL(fileURLWithPath: folder.path + "/relative.json"))
        let repository = VoiceRepository(presetDirectories: [folder.path]) { () throws(SpeechError) in ([], []) }

        // When
        let reader = repository.preset(named: "reader")
        let relative = repository.preset(named: "relative")

        // Then
        #expect(reader?.piper == PiperVoiceSettings(model: model, speaker: 0, lengthScale: 1.1))
        #expect(relative?.piper?.model == model)
    }
}
