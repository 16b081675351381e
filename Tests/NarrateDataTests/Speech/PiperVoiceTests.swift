import Foundation
import Logging
import NarrateDomain
import Testing

@testable import NarrateData

/// A real Piper voice through real `narrate-worker` processes and ONNX Runtime. Runs when
/// NARRATE_TEST_PIPER_VOICE names the voice's `.onnx` (scripts/test-piper.sh sets it to the
/// pip-installed en_US-joe-medium).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["NARRATE_TEST_PIPER_VOICE"] != nil, "NARRATE_TEST_PIPER_VOICE names no Piper voice"))
struct PiperVoiceTests {
    static let model = ProcessInfo.processInfo.environment["NARRATE_TEST_PIPER_VOICE"] ?? ""
    static let voice = VoiceProfile(voice: "en-us", piper: PiperVoiceSettings(model: model))
    static let text = "The first sentence is short. The second one, with a comma, is a little longer!"

    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory()
    }

    @Test("A text is spoken at the voice's rate with a mark per sentence, the same samples twice")
    func speaksWithSentenceMarks() async throws {
        // Given
        let sut = EngineWorkerSynthesizer(workers: 1)
        defer { sut.shutdown() }

        // When
        let first = try await sut.synthesize(SpeechRequest(text: Self.text, voice: Self.voice))
        let second = try await sut.synthesize(SpeechRequest(text: Self.text, voice: Self.voice))

        // Then
        #expect(first.sampleRate == 22_050)
        #expect(first.samples.count > 22_050 * 3)
        #expect(first.samples == second.samples)
        #expect(first.wordMarks.map(\.textOffset) == [0, 29])
        #expect(first.wordMarks.map(\.textLength) == [28, 49])
        #expect(first.wordMarks[0].sampleOffset == 0 && first.wordMarks[1].sampleOffset > 22_050)
        #expect(sut.timing(for: Self.voice) == .sentences)
        #expect(sut.narrator(speaking: Self.voice) == "Piper en_US-joe-medium")
    }

    @Test("Through the repository: the child writes the entry, the key holds the model and the scales, a hit gives it back")
    func cachedThroughTheRepository() async throws {
        // Given
        let cache = try AudioCache(directory: folder.path)
        let engine = EngineWorkerSynthesizer(workers: 1)
        defer { engine.shutdown() }
        let sut = TTSRepository(synthesizer: engine, cache: cache, logger: Logger(label: "test"))
        var calmer = Self.voice
        calmer.piper?.noiseScale = 0.1

        // When
        let spoken = try await sut.synthesize(SpeechRequest(text: Self.text, voice: Self.voice), cachePolicy: .localFirst)
        let again = try await sut.synthesize(SpeechRequest(text: Self.text, voice: Self.voice), cachePolicy: .localFirst)
        let key = try await sut.cacheKey(for: SpeechRequest(text: Self.text, voice: Self.voice))
        let calmerKey = try await sut.cacheKey(for: SpeechRequest(text: Self.text, voice: calmer))
        let descriptor = try await engine.descriptor(for: SpeechRequest(text: Self.text, voice: Self.voice))

        // Then
        #expect(spoken == again)
        #expect(key != calmerKey)
        #expect(descriptor.id == "piper" && descriptor.sampleRate == 22_050)
        #expect(descriptor.version.contains(try PiperVoiceCatalog(directories: []).voice(model: Self.model).modelDigest))
    }

    @Test("The phonemes of a text: ids between BOS and EOS, a pad after each phoneme")
    func phonemes() async throws {
        // Given
        let sut = EngineWorkerSynthesizer(workers: 1)
        defer { sut.shutdown() }

        // When
        let sentences = try await sut.phonemes(SpeechRequest(text: "Hello, world! Bye.", voice: Self.voice))

        // Then
        #expect(sentences.map(\.phonemes) == ["həlˈoʊ, wˈɜːld!", "bˈaɪ."])
        #expect(sentences.first?.ids.prefix(2) == [1, 0])
        #expect(sentences.first?.ids.last == 2)
    }

    @Test("A missing ONNX Runtime fails in one line that says how to install it; nothing else breaks")
    func missingRuntime() async throws {
        // Given
        var environment = ProcessInfo.processInfo.environment
        environment["NARRATE_ONNXRUNTIME"] = folder.path + "/nowhere/libonnxruntime.so"
        let sut = EngineWorkerSynthesizer(workers: 1, environment: environment)
        defer { sut.shutdown() }

        // When / Then
        do {
            _ = try await sut.synthesize(SpeechRequest(text: Self.text, voice: Self.voice))
            Issue.record("spoke without ONNX Runtime")
        } catch {
            guard case let .voiceFailed(voice, reason) = error else { throw error }
            #expect(voice == "en_US-joe-medium")
            #expect(reason.contains("ONNX Runtime could not be loaded from NARRATE_ONNXRUNTIME"))
        }
        let espeak = try await sut.synthesize(SpeechRequest(text: "eSpeak still speaks.", voice: .narrator))
        #expect(!espeak.samples.isEmpty)
    }
}
