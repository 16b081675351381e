import Foundation
import Logging
import NarrateDomain
import Testing

@testable import NarrateData

/// The remote engine against `FaultyHTTPStub`: what it sends, what it decodes, and what it does
/// when the API misbehaves.
@Suite struct RemoteSpeechSynthesizerTests {
    static let samples: [Int16] = (0..<2_205).map { Int16(($0 % 100) * 50 - 2_500) }
    static let key = RemoteAPIKey("sk-test-SECRET-0123456789")!
    static let request = SpeechRequest(text: "Hello there. How are you?", voice: .narrator)

    static func engine(_ stub: FaultyHTTPStub, attempts: Int = 4, responseTimeout: Duration = .seconds(5), maxCharacters: Int? = nil) throws -> RemoteSpeechEngine {
        try RemoteSpeechEngine(
            url: stub.baseURL, model: "tts-1", voice: "nova", apiKey: key, concurrency: 4, maxCharacters: maxCharacters,
            retry: RemoteRetryPolicy(maxAttempts: attempts, baseDelay: .milliseconds(20), maxDelay: .milliseconds(100), deadline: .seconds(600)),
            timeouts: .init(connect: .seconds(2), responseBase: responseTimeout, responsePerCharacter: .zero)
        )
    }

    static func synthesizer(_ stub: FaultyHTTPStub, attempts: Int = 4, responseTimeout: Duration = .seconds(5), maxCharacters: Int? = nil) throws -> (RemoteSpeechSynthesizer, LogHandlerMock.Recorder) {
        let (logger, recorder) = LogHandlerMock.logger()
        return (RemoteSpeechSynthesizer(engine: try engine(stub, attempts: attempts, responseTimeout: responseTimeout, maxCharacters: maxCharacters), logger: logger), recorder)
    }

    // MARK: - The request and the audio

    @Test("it posts OpenAI's request (model, voice, input, speed, wav) with the key as a bearer token, and decodes the WAV sample for sample")
    func request() async throws {
        // Given
        let stub = try FaultyHTTPStub([.wav(Self.samples)])
        let (sut, _) = try Self.synthesizer(stub)
        var request = Self.request
        request.voice.rate = 350

        // When
        let audio = try await sut.synthesize(request)

        // Then
        let sent = try #require(stub.requests.first)
        #expect(sent.method == "POST")
        #expect(sent.path == "/v1/audio/speech")
        #expect(sent.headers["authorization"] == "Bearer sk-test-SECRET-0123456789")
        let json = try #require(sent.json)
        #expect(json["model"] as? String == "tts-1")
        #expect(json["voice"] as? String == "nova")
        #expect(json["input"] as? String == "Hello there. How are you?")
        #expect(json["speed"] as? Double == 2.0)
        #expect(json["response_format"] as? String == "wav")
        #expect(audio.sampleRate == 22_050)
        #expect(audio.samples == Self.samples)
        #expect(sut.usage.current.sentCharacters == 25)
    }

    @Test("the API gives no timings: each sentence gets a mark placed by its share of the text")
    func sentenceMarks() async throws {
        // Given
        let stub = try FaultyHTTPStub([.wav(Self.samples)])
        let (sut, _) = try Self.synthesizer(stub)

        // When
        let audio = try await sut.synthesize(Self.request)

        // Then: "Hello there." is 12 of 24 sentence characters.
        #expect(audio.wordMarks == [
            WordMark(textOffset: 0, textLength: 12, sampleOffset: 0),
            WordMark(textOffset: 13, textLength: 12, sampleOffset: 1_102),
        ])
        #expect(sut.timing == .sentences)
        #expect(!sut.acceptsPhonemes)
    }

    @Test("raw PCM (audio/pcm) is OpenAI's 24 kHz")
    func rawPCM() async throws {
        // Given
        let bytes = Self.samples.flatMap { withUnsafeBytes(of: $0.littleEndian, Array.init) }
        let stub = try FaultyHTTPStub([.answer(status: 200, headers: [("Content-Type", "audio/pcm")], body: bytes)])
        let (sut, _) = try Self.synthesizer(stub)

        // When
        let audio = try await sut.synthesize(Self.request)

        // Then
        #expect(audio.sampleRate == 24_000)
        #expect(audio.samples == Self.samples)
    }

    @Test("an MP3 answer is decoded to its rate and about its length")
    func mp3() async throws {
        // Given: a second of a tone, encoded by LAME.
        let tone = (0..<24_000).map { Int16(sin(Double($0) * 2 * .pi * 440 / 24_000) * 8_000) }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("remote-\(UUID().uuidString).mp3").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try MP3Writer(path: path, sampleRate: 24_000, metadata: AudioFileMetadata(title: "tone", artist: "", album: "", trackNumber: 1, trackCount: 1))
        try writer.append(SpeechAudio(sampleRate: 24_000, samples: tone))
        try writer.finish()
        let mp3 = try #require(FileManager.default.contents(atPath: path))
        let stub = try FaultyHTTPStub([.answer(status: 200, headers: [("Content-Type", "audio/mpeg")], body: Array(mp3))])
        let (sut, _) = try Self.synthesizer(stub)

        // When
        let audio = try await sut.synthesize(Self.request)

        // Then: LAME adds its encoder delay and pads the last frame.
        #expect(audio.sampleRate == 24_000)
        #expect(audio.samples.count >= 24_000 && audio.samples.count <= 24_000 + 3 * 1_152)
        #expect(audio.samples.map { abs(Int($0)) }.max() ?? 0 > 4_000)
    }

    @Test("a text over 4,096 characters goes as several requests cut at sentences, joined in order")
    func longText() async throws {
        // Given
        let sentence = "This sentence is here to make a long text for the API. "
        let text = String(repeating: sentence, count: 100).trimmingCharacters(in: .whitespaces)
        let stub = try FaultyHTTPStub([.wav(Self.samples)])
        let (sut, _) = try Self.synthesizer(stub)

        // When
        let audio = try await sut.synthesize(SpeechRequest(text: text, voice: .narrator))

        // Then
        let inputs = stub.requests.compactMap { $0.json?["input"] as? String }
        #expect(inputs.count == 2)
        #expect(inputs.allSatisfy { $0.unicodeScalars.count <= 4_096 && $0.hasSuffix(".") })
        #expect(inputs.joined(separator: " ") == text)
        #expect(audio.samples.count == 2 * Self.samples.count)
        #expect(audio.wordMarks.count == 100)
        #expect(audio.wordMarks.map(\.sampleOffset) == audio.wordMarks.map(\.sampleOffset).sorted())
    }

    @Test("the cache key names the API's host and path, model, voice and format, never the key")
    func descriptor() throws {
        // Given
        let stub = try FaultyHTTPStub([.reset])
        let (sut, _) = try Self.synthesizer(stub)

        // When
        let engine = try sut.descriptor()
        let description = AudioCacheKey.canonicalDescription(request: Self.request, engine: engine)

        // Then
        #expect(engine.version == "127.0.0.1:\(stub.port)/v1 model=tts-1 voice=nova format=wav")
        #expect(!description.contains("SECRET"))
        #expect(AudioCacheKey(request: Self.request, engine: engine) != AudioCacheKey(request: Self.request, engine: EngineDescriptor(id: "espeak-ng", version: "1.51", sampleRate: 22_050)))
    }

    // MARK: - Faults

    @Test("429 with Retry-After: every request waits that long, then the audio comes")
    func rateLimited() async throws {
        // Given
        let stub = try FaultyHTTPStub([.status(429, [("Retry-After", "1")], body: #"{"error":{"message":"Rate limit reached"}}"#), .wav(Self.samples)])
        let (sut, recorder) = try Self.synthesizer(stub)
        let start = ContinuousClock.now

        // When
        let audio = try await sut.synthesize(Self.request)

        // Then
        #expect(ContinuousClock.now - start >= .milliseconds(950))
        #expect(audio.samples == Self.samples)
        #expect(stub.requestCount == 2)
        #expect(recorder.messages.contains { $0.contains("HTTP 429: Rate limit reached") })
    }

    @Test("500, then a reset connection, then audio: retried until it comes")
    func serverErrors() async throws {
        // Given
        let stub = try FaultyHTTPStub([.status(500), .reset, .wav(Self.samples)])
        let (sut, _) = try Self.synthesizer(stub)

        // When
        let audio = try await sut.synthesize(Self.request)

        // Then
        #expect(audio.samples == Self.samples)
        #expect(stub.requestCount == 3)
    }

    @Test("a server that keeps failing: remoteUnavailable after the attempts, and nothing is counted as sent")
    func unavailable() async throws {
        // Given
        let stub = try FaultyHTTPStub([.status(503)])
        let (sut, _) = try Self.synthesizer(stub, attempts: 3)

        // When
        let error = await #expect(throws: SpeechError.self) { try await sut.synthesize(Self.request) }

        // Then
        guard case let .remoteUnavailable(host, attempts, reason) = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(host == "127.0.0.1:\(stub.port)/v1")
        #expect(attempts == 3)
        #expect(reason.contains("HTTP 503"))
        #expect(stub.requestCount == 3)
        #expect(sut.usage.current.sentCharacters == 0)
    }

    @Test("a body that comes too slowly is given up at the deadline and tried again")
    func slowBody() async throws {
        // Given: the first body would take two minutes, the attempt may take 1 s.
        let body = FaultyHTTPStub.wavBytes(Self.samples, rate: 22_050)
        let stub = try FaultyHTTPStub([.trickle(body: body, contentType: "audio/wav", pieces: 240, interval: 0.5), .wav(Self.samples)])
        let (sut, _) = try Self.synthesizer(stub, responseTimeout: .seconds(1))

        // When
        let audio = try await sut.synthesize(Self.request)

        // Then: tried again while the first body was still coming (not after its two minutes;
        // told by the stub, not by a clock, which a busy test run can hold back for a minute).
        #expect(audio.samples == Self.samples)
        #expect(stub.requestCount == 2)
        #expect(stub.requests.last?.tricklesFinishedBefore == 0)
    }

    @Test("a body that stalls after its headers is given up at the deadline and tried again")
    func stalledBody() async throws {
        // Given: the first answer promises the whole WAV, sends 100 bytes and then nothing.
        let body = FaultyHTTPStub.wavBytes(Self.samples, rate: 22_050)
        let stub = try FaultyHTTPStub([.stall(status: 200, promised: body.count, sent: 100, contentType: "audio/wav"), .wav(Self.samples)])
        let (sut, _) = try Self.synthesizer(stub, responseTimeout: .seconds(1))

        // When
        let audio = try await sut.synthesize(Self.request)

        // Then: the stalled answer was abandoned (the stub saw the client give up) and the
        // second one spoken.
        #expect(audio.samples == Self.samples)
        #expect(stub.requestCount == 2)
        #expect(stub.clientsGaveUp >= 1)
    }

    @Test("an endless answer is read only up to the audio limit, refused, and never taken for audio")
    func endlessBody() async throws {
        // Given: an answer without a length whose bytes never end.
        let stub = try FaultyHTTPStub([.flood(status: 200, contentType: "audio/wav")])
        let (sut, _) = try Self.synthesizer(stub, attempts: 1, responseTimeout: .seconds(600))

        // When
        await #expect(throws: SpeechError.self) { try await sut.synthesize(Self.request) }

        // Then: what was read stays within the limit (and the socket buffers).
        #expect(stub.floodedBytes <= RemoteSpeechEngine.maxBodyBytes + (16 << 20), "\(stub.floodedBytes) bytes")
        #expect(stub.requestCount == 1)
    }

    @Test("a body shorter than its Content-Length is an error, retried, and never taken for audio")
    func cutShort() async throws {
        // Given
        let body = FaultyHTTPStub.wavBytes(Self.samples, rate: 22_050)
        let stub = try FaultyHTTPStub([.cutShort(body: Array(body.prefix(1_000)), contentType: "audio/wav", missing: body.count - 1_000)])
        let (sut, _) = try Self.synthesizer(stub, attempts: 2)
        let cache = AudioCacheMock()
        cache.lookupResult = .success(nil)
        cache.storeResult = .success(())
        let repository = TTSRepository(synthesizer: sut, cache: cache, logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })

        // When
        await #expect(throws: SpeechError.self) { try await repository.synthesize(Self.request, cachePolicy: .localFirst) }

        // Then
        #expect(stub.requestCount == 2)
        #expect(cache.storeCallCount == 0)
    }

    @Test("a 200 that is not audio (an HTML page) is refused at once: the URL is wrong, not the network")
    func wrongContentType() async throws {
        // Given
        let stub = try FaultyHTTPStub([.answer(status: 200, headers: [("Content-Type", "text/html")], body: Array("<html>hello</html>".utf8))])
        let (sut, _) = try Self.synthesizer(stub)

        // When
        let error = await #expect(throws: SpeechError.self) { try await sut.synthesize(Self.request) }

        // Then
        guard case let .remoteRefused(_, reason) = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(reason.problem.contains("text/html, not audio"))
        #expect(stub.requestCount == 1)
    }

    @Test("401 is not retried, and the message says the key was refused without showing it")
    func unauthorized() async throws {
        // Given
        let stub = try FaultyHTTPStub([.status(401, body: #"{"error":{"message":"Incorrect API key provided"}}"#)])
        let (sut, recorder) = try Self.synthesizer(stub)

        // When
        let error = await #expect(throws: SpeechError.self) { try await sut.synthesize(Self.request) }

        // Then
        let message = try #require(error).description
        #expect(message.contains("the API key was refused"))
        #expect(!message.contains("SECRET"))
        #expect(!recorder.messages.joined().contains("SECRET"))
        #expect(stub.requestCount == 1)
        #expect(error?.stopsEveryText == true)
    }

    @Test("--max-characters: a text that would pass the cap is refused before anything is sent")
    func characterCap() async throws {
        // Given
        let stub = try FaultyHTTPStub([.wav(Self.samples)])
        let (sut, _) = try Self.synthesizer(stub, maxCharacters: 30)
        _ = try await sut.synthesize(SpeechRequest(text: "Twenty characters...", voice: .narrator))

        // When
        let error = await #expect(throws: SpeechError.self) { try await sut.synthesize(Self.request) }

        // Then
        #expect(error == .characterLimitReached(limit: 30, sent: 20, needed: 25))
        #expect(stub.requestCount == 1)
        #expect(sut.usage.summary(endpoint: "api") == "20 characters sent to api, 0 from the cache (cap 30).")
    }

    @Test("SSML cannot go to the API")
    func ssml() async throws {
        // Given
        let stub = try FaultyHTTPStub([.wav(Self.samples)])
        let (sut, _) = try Self.synthesizer(stub)

        // When / Then
        await #expect(throws: SpeechError.remoteUnsupported("read SSML")) {
            try await sut.synthesize(SpeechRequest(text: "<speak>Hi</speak>", voice: .narrator, isSSML: true))
        }
        #expect(stub.requestCount == 0)
    }

    @Test("--jobs 3: at most three requests in flight, however many are asked for")
    func concurrency() async throws {
        // Given
        let stub = try FaultyHTTPStub([.delayed(seconds: 0.2, .wav(Self.samples))])
        let (logger, _) = LogHandlerMock.logger()
        var engine = try Self.engine(stub)
        engine.concurrency = 3
        let sut = RemoteSpeechSynthesizer(engine: engine, logger: logger)

        // When
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<9 {
                group.addTask { _ = try await sut.synthesize(SpeechRequest(text: "Text \(index).", voice: .narrator)) }
            }
            try await group.waitForAll()
        }

        // Then
        #expect(stub.requestCount == 9)
        #expect(stub.maxInFlight == 3)
    }
}
