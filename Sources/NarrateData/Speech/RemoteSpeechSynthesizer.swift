import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import Synchronization
import NIOHTTP1
import NarrateDomain

/// Speech from an OpenAI-compatible speech API (`POST {base}/audio/speech`): OpenAI itself,
/// Kokoro-FastAPI, or another `narrate serve`.
///
/// It asks for WAV, so a Narrate upstream round-trips sample for sample, and decodes raw PCM and
/// MP3 from servers that send those. Texts over 4,096 characters go as several requests cut at
/// sentences. Failures that may pass (429, 408, 5xx, a dropped connection, a body cut short, a
/// deadline) are tried again with exponential backoff and full jitter, honouring `Retry-After`;
/// 4xx refusals are not. A 429 slows every request of this synthesizer, which a `NarrateEnvironment` makes once (`RemoteRequestLimiter`).
/// The API gives no word timings: each sentence gets a mark placed by its share of the text
/// (`SentenceTiming`). The key is sent in the `Authorization` header only.
public final class RemoteSpeechSynthesizer: SpeechSynthesizerContract {
    public let engine: RemoteSpeechEngine
    /// Characters sent and served from the cache in this run, with the cap.
    public let usage: RemoteUsage
    private let limiter: RemoteRequestLimiter
    private let logger: Logger
    private let client: HTTPClient

    public init(engine: RemoteSpeechEngine, usage: RemoteUsage? = nil, logger: Logger) {
        self.engine = engine
        self.usage = usage ?? RemoteUsage(limit: engine.maxCharacters)
        self.logger = logger
        limiter = RemoteRequestLimiter(maximum: engine.concurrency)
        client = Self.client(connectTimeout: engine.timeouts.connect)
    }

    /// The cache identity: the API's host and path, the model, the voice and the format asked
    /// for. Never the key. The rate is the one the API delivers (0: as delivered).
    public func descriptor() throws(SpeechError) -> EngineDescriptor {
        EngineDescriptor(id: "openai-speech-api", version: "\(engine.endpoint) model=\(engine.model) voice=\(engine.voice) format=wav", sampleRate: 0)
    }

    public var acceptsPhonemes: Bool { false }
    public var concurrency: Int { engine.concurrency }
    public var timing: SpeechTiming { .sentences }

    /// "nova (tts-1, api.openai.com/v1)": the API's voice speaks, whatever the local voice.
    public func narrator(speaking voice: VoiceProfile) -> String {
        "\(engine.voice) (\(engine.model), \(engine.endpoint))"
    }

    public func synthesize(_ request: SpeechRequest) async throws(SpeechError) -> SpeechAudio {
        guard !request.text.isEmpty else { throw .emptyText }
        guard !request.isSSML else { throw .remoteUnsupported("read SSML") }
        guard !request.phonemeInput else { throw .remoteUnsupported("read eSpeak phonemes") }
        let characters = request.text.unicodeScalars.count
        // The whole text is booked before any of it is sent: nothing goes past the cap.
        try usage.reserve(characters)
        do {
            let pieces = characters > RemoteSpeechEngine.maxInputCharacters
                ? TextChunker.chunks(of: request.text, maxScalars: RemoteSpeechEngine.maxInputCharacters)
                : [TextChunk(text: request.text, scalarOffset: 0)]
            var combined = SpeechAudio(sampleRate: 0, samples: [])
            for piece in pieces {
                var audio = try await fetch(piece.text, speed: RemoteSpeechEngine.speed(forRate: request.voice.rate))
                if combined.sampleRate == 0 { combined.sampleRate = audio.sampleRate }
                audio = audio.resampled(to: combined.sampleRate)
                let marks = SentenceTiming.marks(for: piece.text, sampleCount: audio.samples.count)
                combined.wordMarks += marks.map { $0.shifted(text: piece.scalarOffset, samples: combined.samples.count) }
                combined.samples += audio.samples
            }
            return combined
        } catch {
            usage.refund(characters)
            throw error
        }
    }

    // MARK: - One text, with retries

    private enum Attempt {
        case audio(SpeechAudio)
        case refused(status: Int, reason: RemoteRefusal)
        case retry(reason: String, retryAfter: Duration?, rateLimited: Bool)
    }

    private func fetch(_ text: String, speed: Double) async throws(SpeechError) -> SpeechAudio {
        let clock = ContinuousClock()
        let deadline = clock.now + engine.retry.deadline
        var lastReason = "no attempt"
        var attempt = 0
        while attempt < engine.retry.maxAttempts {
            attempt += 1
            let remaining = deadline - clock.now
            guard remaining > .zero else { break }
            do {
                try await limiter.acquire()
            } catch {
                throw .remoteUnavailable(host: engine.endpoint, attempts: attempt - 1, reason: "cancelled")
            }
            let result = await self.attempt(text, speed: speed, timeout: min(remaining, engine.timeouts.response(characters: text.unicodeScalars.count)))
            switch result {
            case let .audio(audio):
                limiter.release(succeeded: true)
                return audio
            case let .refused(status, reason):
                limiter.release(succeeded: false)
                throw .remoteRefused(status: status, reason: reason)
            case let .retry(reason, retryAfter, rateLimited):
                limiter.release(succeeded: false)
                lastReason = reason
                let delay = engine.retry.delay(afterAttempt: attempt, retryAfter: retryAfter)
                if rateLimited { limiter.slowDown(for: delay) }
                guard attempt < engine.retry.maxAttempts else { break }
                guard clock.now + delay < deadline else {
                    lastReason += "; the next try would pass the \(Int(engine.retry.deadline.seconds)) s deadline"
                    break
                }
                logger.debug("speech API \(engine.endpoint): \(reason); attempt \(attempt + 1) in \(String(format: "%.2f", delay.seconds)) s")
                do { try await Task.sleep(for: delay) } catch {
                    throw .remoteUnavailable(host: engine.endpoint, attempts: attempt, reason: "cancelled")
                }
            }
        }
        throw .remoteUnavailable(host: engine.endpoint, attempts: attempt, reason: lastReason)
    }

    /// One request, bounded by `timeout` from sending to the last byte of the body.
    private func attempt(_ text: String, speed: Double, timeout: Duration) async -> Attempt {
        let body = SpeechBody(model: engine.model, voice: engine.voice, input: text, speed: speed, response_format: "wav")
        guard let json = try? JSONEncoder().encode(body) else { return .refused(status: 0, reason: .requestNotEncodable) }
        let milliseconds = Int64(max(1, timeout.seconds * 1000))
        let within = "within \(String(format: "%.1f", Double(milliseconds) / 1000)) s"
        do {
            let answer = try await DeadlineRace.run(within: .milliseconds(milliseconds)) { [client, engine] in
                var request = HTTPClientRequest(url: engine.speechURL)
                request.method = .POST
                request.headers.add(name: "Content-Type", value: "application/json")
                request.headers.add(name: "Accept", value: "audio/wav, audio/*;q=0.5")
                request.headers.add(name: "User-Agent", value: "narrate")
                if let key = engine.apiKey { request.headers.add(name: "Authorization", value: "Bearer " + key.secret) }
                request.body = .bytes(ByteBuffer(bytes: json))
                let response = try await client.execute(request, timeout: .milliseconds(milliseconds))
                return try await Self.read(response)
            }
            return answer ?? .retry(reason: "no whole answer \(within)", retryAfter: nil, rateLimited: false)
        } catch let error as HTTPClientError where error == .deadlineExceeded {
            return .retry(reason: "no answer \(within)", retryAfter: nil, rateLimited: false)
        } catch {
            return .retry(reason: Self.describe(error), retryAfter: nil, rateLimited: false)
        }
    }

    private struct SpeechBody: Encodable {
        var model: String
        var voice: String
        var input: String
        var speed: Double
        var response_format: String
    }

    /// The response as audio, a refusal or a reason to try again.
    private static func read(_ response: HTTPClientResponse) async throws -> Attempt {
        let status = Int(response.status.code)
        let contentType = response.headers.first(name: "Content-Type")
        guard (200..<300).contains(status) else {
            let body = (try? await response.body.collect(upTo: 64 << 10)).map { String(buffer: $0) } ?? ""
            let message = apiMessage(body)
            if RemoteRetryPolicy.isRetryable(status: status) {
                let retryAfter = response.headers.first(name: "Retry-After").flatMap { RemoteRetryPolicy.retryAfter($0) }
                return .retry(reason: "HTTP \(status)\(message.map { ": " + $0 } ?? "")", retryAfter: retryAfter, rateLimited: status == 429)
            }
            return .refused(status: status, reason: refusal(status: status, message: message))
        }
        let declared = response.headers.first(name: "Content-Length").flatMap(Int.init)
        if let declared, declared > RemoteSpeechEngine.maxBodyBytes {
            return .refused(status: status, reason: .audioTooLarge(bytes: declared, limitBytes: RemoteSpeechEngine.maxBodyBytes))
        }
        let buffer: ByteBuffer
        do {
            buffer = try await response.body.collect(upTo: RemoteSpeechEngine.maxBodyBytes)
        } catch is NIOTooManyBytesError {
            return .refused(status: status, reason: .audioTooLarge(bytes: nil, limitBytes: RemoteSpeechEngine.maxBodyBytes))
        }
        let bytes = Array(buffer.readableBytesView)
        if let declared, bytes.count != declared {
            return .retry(reason: "the body was cut short: \(bytes.count) of \(declared) bytes", retryAfter: nil, rateLimited: false)
        }
        do {
            let decoded = try RemoteAudioDecoder.decode(bytes, contentType: contentType)
            return .audio(SpeechAudio(sampleRate: decoded.sampleRate, samples: decoded.samples))
        } catch let failure {
            if case let .notAudio(type) = failure { return .refused(status: status, reason: .notAudio(contentType: type)) }
            return .retry(reason: failure.description, retryAfter: nil, rateLimited: false)
        }
    }

    /// What a refusal means; the server's own message never carries the key (we never send it
    /// anywhere but the header).
    private static func refusal(status: Int, message: String?) -> RemoteRefusal {
        switch status {
        case 401: .keyRejected(apiSays: message)
        case 403: .keyNotPermitted(apiSays: message)
        case 404: .notFound(apiSays: message)
        case 400, 422: .requestRejected(apiSays: message)
        default: .refused(apiSays: message)
        }
    }

    /// OpenAI's `{"error": {"message": …}}`, else the start of a text body, on one line.
    private static func apiMessage(_ body: String) -> String? {
        var text = body
        if let data = body.data(using: .utf8), let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
            if let error = object["error"] as? [String: Any], let message = error["message"] as? String {
                text = message
            } else if let message = (object["detail"] as? String) ?? (object["message"] as? String) ?? (object["error"] as? String) {
                text = message
            }
        }
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingCharacters(in: .whitespaces)
        guard !line.isEmpty else { return nil }
        return line.count > 160 ? String(line.prefix(160)) + "…" : line
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .connectTimeout: return "the connection timed out"
            case .remoteConnectionClosed: return "the server closed the connection"
            case .readTimeout: return "the server stopped sending"
            default: return "HTTP client error \(error)"
            }
        }
        let text = String(describing: error)
        if text.contains("connectTimeout") { return "the connection timed out" }
        // NIO words a refused connect as "connection reset (error set): Connection refused".
        if text.contains("refused") || text.contains("errno: 111") { return "the connection was refused" }
        if text.contains("connection reset") || text.contains("ECONNRESET") || text.contains("errno: 104") { return "the connection was reset" }
        return text.count > 160 ? String(text.prefix(160)) : text
    }

    // MARK: - The HTTP client

    /// One client per connect timeout, for the life of the process (HTTPClient must be shut
    /// down before it is released, so these never are).
    private static func client(connectTimeout: Duration) -> HTTPClient {
        let milliseconds = Int64(connectTimeout.seconds * 1000)
        return clients.withLock { clients in
            if let client = clients[milliseconds] { return client }
            var configuration = HTTPClient.Configuration(
                redirectConfiguration: .disallow,
                timeout: .init(connect: .milliseconds(milliseconds), read: .seconds(120))
            )
            configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)
            // A refused connection is one failed attempt, retried on our schedule, not the
            // client's own until the connect timeout.
            configuration.connectionPool.retryConnectionEstablishment = false
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            clients[milliseconds] = client
            return client
        }
    }

    private static let clients = Mutex<[Int64: HTTPClient]>([:])
}
