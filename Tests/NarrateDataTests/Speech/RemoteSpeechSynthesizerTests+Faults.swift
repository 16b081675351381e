import Foundation
import Logging
import NarrateDomain
import Testing

@testable import NarrateData

/// The remote engine when the API misbehaves: rate limits, failures, slow and stalled bodies,
/// answers that are not audio, refused keys, and its caps.
extension RemoteSpeechSynthesizerTests {
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
