import Foundation
import NarrateDomain
import Testing

@testable import NarrateData

@Suite struct RemoteRetryPolicyTests {
    let sut = RemoteRetryPolicy(maxAttempts: 5, baseDelay: .milliseconds(500), maxDelay: .seconds(4), deadline: .seconds(60))

    @Test("the backoff doubles from the base up to the cap, drawn from zero to it (full jitter)")
    func backoff() {
        #expect(sut.delay(afterAttempt: 1, retryAfter: nil, unit: 1) == .milliseconds(500))
        #expect(sut.delay(afterAttempt: 2, retryAfter: nil, unit: 1) == .seconds(1))
        #expect(sut.delay(afterAttempt: 4, retryAfter: nil, unit: 1) == .seconds(4))
        #expect(sut.delay(afterAttempt: 9, retryAfter: nil, unit: 1) == .seconds(4))
        #expect(sut.delay(afterAttempt: 3, retryAfter: nil, unit: 0.5) == .seconds(1))
        #expect(sut.delay(afterAttempt: 3, retryAfter: nil, unit: 0) == .zero)
    }

    @Test("Retry-After wins when it asks for longer")
    func retryAfterWins() {
        #expect(sut.delay(afterAttempt: 1, retryAfter: .seconds(3), unit: 1) == .seconds(3))
        #expect(sut.delay(afterAttempt: 4, retryAfter: .seconds(1), unit: 1) == .seconds(4))
    }

    @Test("Retry-After as seconds or as an HTTP date; nonsense is ignored")
    func retryAfterParsing() {
        let now = Date(timeIntervalSince1970: 1_784_000_000)
        #expect(RemoteRetryPolicy.retryAfter("7", now: now) == .seconds(7))
        #expect(RemoteRetryPolicy.retryAfter(" 0.25 ", now: now) == .milliseconds(250))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        #expect(RemoteRetryPolicy.retryAfter(formatter.string(from: now.addingTimeInterval(12)), now: now) == .seconds(12))
        #expect(RemoteRetryPolicy.retryAfter("-3", now: now) == nil)
        #expect(RemoteRetryPolicy.retryAfter("soon", now: now) == nil)
    }

    @Test("which statuses are retried")
    func retryable() {
        #expect([408, 429, 500, 502, 503, 504].allSatisfy(RemoteRetryPolicy.isRetryable))
        #expect(![400, 401, 403, 404, 422].contains(where: RemoteRetryPolicy.isRetryable))
    }
}

@Suite struct RemoteAudioDecoderTests {
    static let samples: [Int16] = [0, 1_000, -1_000, 32_767, -32_768]

    @Test("a WAV streamed with its sizes left open runs to the end of the body")
    func openSizes() throws {
        var bytes = FaultyHTTPStub.wavBytes(Self.samples, rate: 24_000)
        bytes.replaceSubrange(40..<44, with: [0xFF, 0xFF, 0xFF, 0xFF])
        let decoded = try RemoteAudioDecoder.decode(bytes, contentType: "audio/wav")
        #expect(decoded.sampleRate == 24_000)
        #expect(decoded.samples == Self.samples)
    }

    @Test("a WAV whose data chunk promises more than there is is cut short")
    func truncated() {
        let bytes = Array(FaultyHTTPStub.wavBytes(Self.samples, rate: 24_000).dropLast(4))
        #expect(throws: RemoteAudioDecoder.Failure.truncated("6 of 10 data bytes")) { try RemoteAudioDecoder.decode(bytes, contentType: nil) }
    }

    @Test("stereo is mixed down to mono")
    func stereo() throws {
        var bytes = FaultyHTTPStub.wavBytes([100, 300, -200, 0], rate: 22_050)
        bytes[22] = 2  // channels
        let decoded = try RemoteAudioDecoder.decode(bytes, contentType: "audio/wav")
        #expect(decoded.samples == [200, -100])
    }

    @Test("JSON, HTML or an empty body is not audio")
    func notAudio() {
        #expect(throws: RemoteAudioDecoder.Failure.notAudio(contentType: "application/json")) {
            try RemoteAudioDecoder.decode(Array("{}".utf8), contentType: "application/json; charset=utf-8")
        }
        #expect(throws: RemoteAudioDecoder.Failure.empty) { try RemoteAudioDecoder.decode([], contentType: "audio/wav") }
        #expect(throws: RemoteAudioDecoder.Failure.self) { try RemoteAudioDecoder.decode(Array("RIFF....WAVEjunk".utf8), contentType: "audio/wav") }
    }

    @Test("raw PCM takes its rate from the type when it says one")
    func pcmRate() throws {
        let bytes: [UInt8] = [1, 0, 2, 0]
        #expect(try RemoteAudioDecoder.decode(bytes, contentType: "audio/pcm").sampleRate == 24_000)
        #expect(try RemoteAudioDecoder.decode(bytes, contentType: "audio/pcm; rate=16000").sampleRate == 16_000)
        #expect(try RemoteAudioDecoder.decode(bytes, contentType: "audio/L16; rate=8000").samples == [256, 512])
    }
}

@Suite struct RemoteAPIKeyTests {
    @Test("a key never prints: not as a description, a dump, or inside an engine")
    func neverPrinted() throws {
        let key = try #require(RemoteAPIKey("  sk-SECRET-value\n"))
        let engine = try RemoteSpeechEngine(url: "https://api.example.com/v1/", apiKey: key)
        var dumped = ""
        dump(engine, to: &dumped)
        for text in ["\(key)", String(reflecting: key), "\(engine)", String(reflecting: engine), dumped] {
            #expect(!text.contains("SECRET"), "\(text)")
        }
        #expect(key.secret == "sk-SECRET-value")
        #expect(engine.baseURL == "https://api.example.com/v1")
        #expect(engine.endpoint == "api.example.com/v1")
    }

    @Test("NARRATE_API_KEY, else OPENAI_API_KEY, else the file's first line")
    func sources() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("key-\(UUID().uuidString)").path
        try "from-file\nsecond line\n".write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(try RemoteAPIKey.load(environment: ["NARRATE_API_KEY": "n", "OPENAI_API_KEY": "o"], file: file)?.secret == "n")
        #expect(try RemoteAPIKey.load(environment: ["NARRATE_API_KEY": " ", "OPENAI_API_KEY": "o"], file: file)?.secret == "o")
        #expect(try RemoteAPIKey.load(environment: [:], file: file)?.secret == "from-file")
        #expect(try RemoteAPIKey.load(environment: [:], file: nil) == nil)
        #expect(throws: SpeechError.self) { try RemoteAPIKey.load(environment: [:], file: file + ".missing") }
    }

    @Test("a base URL must be http(s) with a host")
    func badURL() {
        for url in ["api.openai.com/v1", "ftp://host/v1", "http:///v1", "https://user:pw@host/v1"] {
            #expect(throws: SpeechError.self, "\(url)") { try RemoteSpeechEngine(url: url) }
        }
    }

    @Test("speed: 175 words per minute is 1.0, within OpenAI's 0.25–4")
    func speed() {
        #expect(RemoteSpeechEngine.speed(forRate: 175) == 1.0)
        #expect(RemoteSpeechEngine.speed(forRate: 350) == 2.0)
        #expect(RemoteSpeechEngine.speed(forRate: 10) == 0.25)
    }
}

@Suite struct RemoteRequestLimiterTests {
    @Test("a 429 halves how many go at once and pauses everyone; successes raise it again")
    func slowDown() async throws {
        let sut = RemoteRequestLimiter(maximum: 8)
        sut.slowDown(for: .milliseconds(300))
        #expect(sut.currentLimit == 4)
        let start = ContinuousClock.now
        try await sut.acquire()
        #expect(ContinuousClock.now - start >= .milliseconds(250))
        sut.release(succeeded: true)
        #expect(sut.currentLimit == 5)
    }

    @Test("a waiter that is cancelled leaves the queue")
    func cancelled() async throws {
        let sut = RemoteRequestLimiter(maximum: 1)
        try await sut.acquire()
        let waiter = Task { try await sut.acquire() }
        try await Task.sleep(for: .milliseconds(50))
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        sut.release(succeeded: false)
        try await sut.acquire()
    }
}
