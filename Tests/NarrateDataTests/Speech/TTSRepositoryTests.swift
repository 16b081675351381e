import Logging
import NarrateDomain
import Testing

@testable import NarrateData

@Suite struct TTSRepositoryTests {
    static let engine = EngineDescriptor(id: "espeak-ng", version: "1.52.0", sampleRate: 22_050)
    static let request = SpeechRequest(text: "Hello, world.", voice: .narrator)
    static let key = AudioCacheKey(request: request, engine: engine)
    static let fresh = SpeechAudio(sampleRate: 22_050, samples: [1, 2, 3], wordMarks: [WordMark(textOffset: 0, textLength: 5, sampleOffset: 0)])
    static let cached = SpeechAudio(sampleRate: 22_050, samples: [9, 9], wordMarks: [])
    static let synthesisFailure = SpeechError.synthesisFailed(code: 1, voice: "en-us", textLength: 13)

    let synthesizerMock: SpeechSynthesizerMock
    let cacheMock: AudioCacheMock
    let sut: TTSRepository

    init() {
        synthesizerMock = SpeechSynthesizerMock()
        synthesizerMock.descriptorResult = .success(Self.engine)
        synthesizerMock.result = .success(Self.fresh)
        cacheMock = AudioCacheMock()
        cacheMock.lookupResult = .success(nil)
        cacheMock.storeResult = .success(())
        sut = TTSRepository(synthesizer: synthesizerMock, cache: cacheMock, logger: Self.silentLogger)
    }

    static var silentLogger: Logger {
        Logger(label: "TTSRepositoryTests") { _ in SwiftLogNoOpLogHandler() }
    }

    // MARK: - Pronunciations

    @Test("with a lexicon in force, the engine gets [[…]] spans with phoneme input on, the key is the original text's, and word marks map back")
    func pronunciations() async throws {
        // Given
        var voice = VoiceProfile.narrator
        voice.lexicons = [PronunciationLexicon(name: "fixes.pls", language: "en", digest: "d1", entries: [
            PronunciationEntry(graphemes: ["nginx"], phonemes: "ˈɛndʒɪnˈɛks", alphabet: "ipa"),
        ])]
        let request = SpeechRequest(text: "Run nginx now.", voice: voice)
        // "Run [['EndZIn'Eks]] now.": "now" starts at 20 in what the engine is given.
        synthesizerMock.result = .success(SpeechAudio(sampleRate: 22_050, samples: [1], wordMarks: [
            WordMark(textOffset: 4, textLength: 15, sampleOffset: 5), WordMark(textOffset: 20, textLength: 3, sampleOffset: 9),
        ]))

        // When
        let audio = try await sut.synthesize(request, cachePolicy: .localFirst)

        // Then
        let given = try #require(synthesizerMock.lastRequest)
        #expect(given.text == "Run [['EndZIn'Eks]] now.")
        #expect(given.phonemeInput)
        #expect(given.voice.lexicons.isEmpty)
        #expect(cacheMock.lastStoredKey == AudioCacheKey(request: request, engine: Self.engine))
        #expect(cacheMock.lastStoredKey != AudioCacheKey(request: SpeechRequest(text: "Run nginx now.", voice: .narrator), engine: Self.engine))
        #expect(audio.wordMarks == [WordMark(textOffset: 4, textLength: 5, sampleOffset: 5), WordMark(textOffset: 10, textLength: 3, sampleOffset: 9)])
    }

    @Test("without lexicons the engine gets the text as it is, phoneme input off")
    func noPronunciations() async throws {
        // When
        _ = try await sut.synthesize(SpeechRequest(text: "See [[h@l'oU]].", voice: .narrator), cachePolicy: .noCache)

        // Then
        #expect(synthesizerMock.lastRequest == SpeechRequest(text: "See [[h@l'oU]].", voice: .narrator))
    }

    // MARK: - localFirst

    @Test("localFirst: a cache hit is returned without synthesizing or storing")
    func localFirstHit() async throws {
        // Given
        cacheMock.entries = [Self.key: Self.cached]

        // When
        let audio = try await sut.synthesize(Self.request, cachePolicy: .localFirst)

        // Then
        #expect(audio == Self.cached)
        #expect(cacheMock.lastLookedUpKey == Self.key)
        #expect(synthesizerMock.synthesizeCallCount == 0)
        #expect(cacheMock.storeCallCount == 0)
    }

    @Test("localFirst: a miss is synthesized and stored under the request's key")
    func localFirstMiss() async throws {
        // When
        let audio = try await sut.synthesize(Self.request, cachePolicy: .localFirst)

        // Then
        #expect(audio == Self.fresh)
        #expect(synthesizerMock.synthesizeCallCount == 1)
        #expect(synthesizerMock.lastRequest == Self.request)
        #expect(cacheMock.storeCallCount == 1)
        #expect(cacheMock.lastStoredKey == AudioCacheKey(request: Self.request, engine: Self.engine))
        #expect(cacheMock.lastStoredAudio == Self.fresh)
    }

    @Test("localFirst: a cache lookup that throws is treated as a miss and the text is synthesized")
    func localFirstLookupFailureSynthesizes() async throws {
        // Given
        cacheMock.lookupResult = .failure(.indexFailed(path: "/cache/index.sqlite", reason: "database is locked"))

        // When
        let audio = try await sut.synthesize(Self.request, cachePolicy: .localFirst)

        // Then
        #expect(audio == Self.fresh)
        #expect(cacheMock.lookupCallCount == 1)
        #expect(synthesizerMock.synthesizeCallCount == 1)
    }

    @Test("localFirst: a store that fails (a full disk) still returns the audio, and warns once for several")
    func localFirstStoreFailureCarriesOn() async throws {
        // Given
        let failure = CacheError.writeFailed(path: "/cache/ab/abcd", reason: "No space left on device")
        cacheMock.storeResult = .failure(failure)
        let (logger, recorder) = LogHandlerMock.logger()
        let sut = TTSRepository(synthesizer: synthesizerMock, cache: cacheMock, logger: logger)

        // When
        let first = try await sut.synthesize(Self.request, cachePolicy: .localFirst)
        let second = try await sut.synthesize(Self.request, cachePolicy: .localFirst)

        // Then
        #expect(first == Self.fresh)
        #expect(second == Self.fresh)
        #expect(synthesizerMock.synthesizeCallCount == 2)
        let warnings = recorder.messages.filter { $0.contains("could not store") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("No space left on device") == true)
    }

    @Test("localFirst: a synthesis failure on a miss is thrown and nothing is stored")
    func localFirstSynthesisFailureThrows() async throws {
        // Given
        synthesizerMock.result = .failure(Self.synthesisFailure)

        // When / Then
        await #expect(throws: Self.synthesisFailure) {
            _ = try await sut.synthesize(Self.request, cachePolicy: .localFirst)
        }
        #expect(cacheMock.storeCallCount == 0)
    }

    // MARK: - remoteFirst

    @Test("remoteFirst: the text is synthesized and stored even when it is cached")
    func remoteFirstSynthesizesAndStores() async throws {
        // Given
        cacheMock.entries = [Self.key: Self.cached]

        // When
        let audio = try await sut.synthesize(Self.request, cachePolicy: .remoteFirst)

        // Then
        #expect(audio == Self.fresh)
        #expect(synthesizerMock.synthesizeCallCount == 1)
        #expect(cacheMock.lookupCallCount == 0)
        #expect(cacheMock.lastStoredKey == Self.key)
        #expect(cacheMock.entries[Self.key] == Self.fresh)
    }

    @Test("remoteFirst: when synthesis fails, the cached audio is returned")
    func remoteFirstFallsBackToCache() async throws {
        // Given
        cacheMock.entries = [Self.key: Self.cached]
        synthesizerMock.result = .failure(Self.synthesisFailure)

        // When
        let audio = try await sut.synthesize(Self.request, cachePolicy: .remoteFirst)

        // Then
        #expect(audio == Self.cached)
        #expect(cacheMock.lastLookedUpKey == Self.key)
        #expect(cacheMock.storeCallCount == 0)
    }

    @Test("remoteFirst: when synthesis fails and nothing is cached, the synthesis error is thrown")
    func remoteFirstFailureWithoutEntryThrows() async throws {
        // Given
        synthesizerMock.result = .failure(Self.synthesisFailure)

        // When / Then
        await #expect(throws: Self.synthesisFailure) {
            _ = try await sut.synthesize(Self.request, cachePolicy: .remoteFirst)
        }
        #expect(cacheMock.lookupCallCount == 1)
    }

    @Test("remoteFirst: when synthesis fails and the cache cannot be read, the synthesis error is thrown")
    func remoteFirstFailureWithBrokenCacheThrows() async throws {
        // Given
        synthesizerMock.result = .failure(Self.synthesisFailure)
        cacheMock.lookupResult = .failure(.indexFailed(path: "/cache/index.sqlite", reason: "corrupt"))

        // When / Then
        await #expect(throws: Self.synthesisFailure) {
            _ = try await sut.synthesize(Self.request, cachePolicy: .remoteFirst)
        }
    }

    @Test("remoteFirst: a store that fails (a read-only cache) still returns the fresh audio")
    func remoteFirstStoreFailureCarriesOn() async throws {
        // Given
        let failure = CacheError.notWritable(path: "/cache", reason: "Read-only file system")
        cacheMock.storeResult = .failure(failure)

        // When
        let audio = try await sut.synthesize(Self.request, cachePolicy: .remoteFirst)

        // Then
        #expect(audio == Self.fresh)
    }

    // MARK: - noCache and no cache

    @Test("noCache: the text is synthesized and the cache is never touched")
    func noCacheNeverTouchesCache() async throws {
        // Given
        cacheMock.entries = [Self.key: Self.cached]

        // When
        let audio = try await sut.synthesize(Self.request, cachePolicy: .noCache)

        // Then
        #expect(audio == Self.fresh)
        #expect(synthesizerMock.synthesizeCallCount == 1)
        #expect(cacheMock.lookupCallCount == 0)
        #expect(cacheMock.storeCallCount == 0)
    }

    @Test("Without a cache, every policy synthesizes", arguments: [CachePolicy.localFirst, .remoteFirst, .noCache])
    func nilCacheSynthesizes(policy: CachePolicy) async throws {
        // Given
        let sut = TTSRepository(synthesizer: synthesizerMock, cache: nil, logger: Self.silentLogger)

        // When
        let audio = try await sut.synthesize(Self.request, cachePolicy: policy)

        // Then
        #expect(audio == Self.fresh)
        #expect(synthesizerMock.synthesizeCallCount == 1)
    }

    // MARK: - Errors and keys

    @Test("An empty text throws emptyText without touching the engine or the cache", arguments: [CachePolicy.localFirst, .remoteFirst, .noCache])
    func emptyTextThrows(policy: CachePolicy) async throws {
        // When / Then
        await #expect(throws: SpeechError.emptyText) {
            _ = try await sut.synthesize(SpeechRequest(text: "", voice: .narrator), cachePolicy: policy)
        }
        #expect(synthesizerMock.synthesizeCallCount == 0)
        #expect(cacheMock.lookupCallCount == 0)
    }

    @Test("An engine that cannot describe itself throws its error before the cache is used")
    func descriptorFailureThrows() async throws {
        // Given
        let failure = SpeechError.engineUnavailable(reason: "espeak-ng-data not found")
        synthesizerMock.descriptorResult = .failure(failure)

        // When / Then
        await #expect(throws: failure) {
            _ = try await sut.synthesize(Self.request, cachePolicy: .localFirst)
        }
        #expect(cacheMock.lookupCallCount == 0)
    }

    @Test("cacheKey(for:) is the hex of the request's key for this engine")
    func cacheKeyIsHex() async throws {
        // When
        let hex = try await sut.cacheKey(for: Self.request)

        // Then
        #expect(hex == Self.key.hex)
    }
}
