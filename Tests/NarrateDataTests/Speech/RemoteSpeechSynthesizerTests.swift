import Foundation
import Logging
import NarrateDomain
import Testing

@testable import NarrateData

/// The remote engine against `FaultyHTTPStub`: what it sends and what it decodes (what it does
/// when the API misbehaves: RemoteSpeechSynthesizerTests+Faults.swift).
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
}
