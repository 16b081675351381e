import Logging
import Synchronization
import NarrateDomain
import Testing

@testable import NarrateData

/// The remote engine's fallback: what the API cannot deliver, eSpeak speaks, under eSpeak's key.
@Suite struct TTSRepositoryFallbackTests {
    static let remote = EngineDescriptor(id: "openai-speech-api", version: "api.example.com/v1 model=tts-1 voice=alloy format=wav", sampleRate: 0)
    static let espeak = EngineDescriptor(id: "espeak-ng", version: "1.51", sampleRate: 22_050)
    static let request = SpeechRequest(text: "Hello, world.", voice: .narrator)
    static let down = SpeechError.remoteUnavailable(host: "api.example.com/v1", attempts: 5, reason: "HTTP 503")
    static let remoteAudio = SpeechAudio(sampleRate: 24_000, samples: Array(repeating: 7, count: 2_400))
    static let espeakAudio = SpeechAudio(sampleRate: 22_050, samples: Array(repeating: 3, count: 2_205))

    let primary = SpeechSynthesizerMock()
    let fallback = SpeechSynthesizerMock()
    let cache = AudioCacheMock()
    let recorder: LogHandlerMock.Recorder
    let events = EventRecorder()
    let clock = InstantClockMock()
    let sut: TTSRepository

    final class EventRecorder: Sendable {
        private let storage = Mutex<[String]>([])
        var names: [String] { storage.withLock { $0 } }
        func record(_ event: SynthesisEvent) { storage.withLock { $0.append("\(event)") } }
    }

    init() {
        primary.descriptorResult = .success(Self.remote)
        primary.readsPhonemes = false
        fallback.descriptorResult = .success(Self.espeak)
        fallback.result = .success(Self.espeakAudio)
        cache.lookupResult = .success(nil)
        cache.storeResult = .success(())
        let (logger, recorder) = LogHandlerMock.logger()
        self.recorder = recorder
        let events = events
        sut = TTSRepository(synthesizer: primary, cache: cache, logger: logger, fallback: fallback, observer: { events.record($0) }, now: clock.now)
    }

    @Test("the API down: eSpeak speaks, stored under eSpeak's key, warned about once")
    func fallsBack() async throws {
        // Given
        primary.result = .failure(Self.down)

        // When
        let first = try await sut.synthesize(Self.request, cachePolicy: .localFirst)
        _ = try await sut.synthesize(SpeechRequest(text: "Another text.", voice: .narrator), cachePolicy: .localFirst)

        // Then
        #expect(first == Self.espeakAudio)
        #expect(cache.storedKeys.first == AudioCacheKey(request: Self.request, engine: Self.espeak))
        #expect(!cache.storedKeys.contains(AudioCacheKey(request: Self.request, engine: Self.remote)))
        #expect(recorder.messages.filter { $0.contains("spoken by eSpeak NG") }.count == 1)
        #expect(events.names.filter { $0.hasPrefix("fellBack") }.count == 2)
        // The API is left alone for a while after failing: the second text did not wait for it.
        #expect(primary.synthesizeCallCount == 1)
    }

    @Test("the API down: it is left alone for 30 s after failing, then asked again")
    func apiDownPauseEnds() async throws {
        // Given: the API failed a text.
        primary.result = .failure(Self.down)
        _ = try await sut.synthesize(Self.request, cachePolicy: .localFirst)
        primary.result = .success(Self.remoteAudio)

        // When: a moment before the pause ends, and when it has ended.
        clock.advance(by: TTSRepository.apiDownPause - .milliseconds(1))
        let during = try await sut.synthesize(SpeechRequest(text: "Still inside the pause.", voice: .narrator), cachePolicy: .localFirst)
        let callsDuring = primary.synthesizeCallCount
        clock.advance(by: .milliseconds(1))
        _ = try await sut.synthesize(SpeechRequest(text: "The pause is over.", voice: .narrator), cachePolicy: .localFirst)

        // Then: eSpeak spoke inside the pause without the API being asked; after it, the API.
        #expect(during == Self.espeakAudio)
        #expect(callsDuring == 1)
        #expect(primary.synthesizeCallCount == 2)
        #expect(primary.lastRequest?.text == "The pause is over.")
    }

    @Test("a later run with the API up fills the API's entry")
    func laterRun() async throws {
        // Given: an earlier run stored eSpeak's audio.
        cache.entries = [AudioCacheKey(request: Self.request, engine: Self.espeak): Self.espeakAudio]
        primary.result = .success(Self.remoteAudio)

        // When
        let audio = try await sut.synthesize(Self.request, cachePolicy: .localFirst)

        // Then
        #expect(audio == Self.remoteAudio)
        #expect(cache.lastStoredKey == AudioCacheKey(request: Self.request, engine: Self.remote))
        #expect(fallback.synthesizeCallCount == 0)
    }

    @Test("the API still down on a later run: eSpeak's cached audio, nothing synthesized")
    func cachedFallback() async throws {
        // Given
        cache.entries = [AudioCacheKey(request: Self.request, engine: Self.espeak): Self.espeakAudio]
        primary.result = .failure(Self.down)

        // When
        let audio = try await sut.synthesize(Self.request, cachePolicy: .localFirst)

        // Then
        #expect(audio == Self.espeakAudio)
        #expect(fallback.synthesizeCallCount == 0)
    }

    @Test("a refusal (a bad key) is not covered up by the fallback")
    func refusalIsNotCovered() async throws {
        // Given
        primary.result = .failure(.remoteRefused(status: 401, reason: .keyRejected(apiSays: nil)))

        // When / Then
        await #expect(throws: SpeechError.remoteRefused(status: 401, reason: .keyRejected(apiSays: nil))) {
            try await sut.synthesize(Self.request, cachePolicy: .localFirst)
        }
        #expect(fallback.synthesizeCallCount == 0)
    }

    @Test("audio of both engines in one run comes at the first one's rate")
    func oneRate() async throws {
        // Given: the API speaks the first text, then goes down.
        primary.result = .success(Self.remoteAudio)
        _ = try await sut.synthesize(Self.request, cachePolicy: .localFirst)
        primary.result = .failure(Self.down)

        // When
        let second = try await sut.synthesize(SpeechRequest(text: "Then it failed.", voice: .narrator), cachePolicy: .localFirst)

        // Then: eSpeak's 0.1 s at 22,050 Hz is given at 24,000 Hz, and stored as eSpeak made it.
        #expect(second.sampleRate == 24_000)
        #expect(abs(second.samples.count - 2_400) <= 1)
        #expect(cache.lastStoredAudio == Self.espeakAudio)
    }

    @Test("lexicons are left out for an engine that reads no phonemes: the text goes as it is")
    func lexiconsLeftOut() async throws {
        // Given
        var voice = VoiceProfile.narrator
        voice.lexicons = [PronunciationLexicon(name: "fixes.pls", language: "en", digest: "d1", entries: [
            PronunciationEntry(graphemes: ["nginx"], phonemes: "ˈɛndʒɪnˈɛks", alphabet: "ipa"),
        ])]
        primary.result = .success(Self.remoteAudio)

        // When
        _ = try await sut.synthesize(SpeechRequest(text: "Run nginx now.", voice: voice), cachePolicy: .localFirst)

        // Then
        #expect(primary.lastRequest?.text == "Run nginx now.")
        #expect(primary.lastRequest?.phonemeInput == false)
        #expect(recorder.messages.contains { $0.contains("lexicons are not applied") })
    }
}
