import Foundation
import HTTPTypes
import Logging
import NIOCore
import NarrateKit

/// What every front door of the service shares: the speech path through the cache (the same
/// cache and keys as the CLI), the voices, the library, the admission queue and the metrics.
/// HTTP and Wyoming both speak through `speak`.
final class SpeechBackend: Sendable {
    let configuration: NarrateConfiguration
    let server: ServerConfiguration
    let repository: any TTSRepositoryContract
    let speakText: any SpeakTextUseCaseContract
    let resolveVoice: any ResolveVoiceUseCaseContract
    let getVoices: any GetVoicesUseCaseContract
    let library: LibraryUseCases
    let queue: SynthesisQueue
    let metrics: ServerMetrics
    let logger: Logger
    let pageMemo = PageAudioMemo()
    /// Voice names resolved in the last few seconds: resolving reads every preset file, and an
    /// eSpeak name asks a worker for its voice list.
    let voiceMemo = VoiceMemo()
    /// Page renderings in progress, shared by the requests that want the same file.
    let renders = RenderFlights()

    init(configuration: NarrateConfiguration, server: ServerConfiguration, logger: Logger) throws {
        self.configuration = configuration
        self.server = server
        self.logger = logger
        let metrics = ServerMetrics()
        self.metrics = metrics
        let cache = try makeAudioCache(configuration: configuration, logger: logger)
        repository = makeTTSRepository(configuration: configuration, cache: cache, logger: logger) { event in
            metrics.record(event)
            RequestRecord.current?.record(event)
        }
        speakText = makeSpeakTextUseCase(repository: repository, firstChunkAlone: true)
        resolveVoice = makeResolveVoiceUseCase(configuration: configuration)
        getVoices = makeGetVoicesUseCase(configuration: configuration)
        library = try makeLibraryUseCases(configuration: configuration)
        queue = SynthesisQueue(slots: configuration.engineWorkers, limit: server.queueLimit)
    }

    /// The profile for a voice name (a preset, an eSpeak voice or one of OpenAI's names) at
    /// `speed` (1 is the voice's own rate).
    /// - Throws: `APIError` 400 naming the parameter.
    func voice(named name: String?, speed: Double?) async throws(APIError) -> VoiceProfile {
        let name = name?.trimmingCharacters(in: .whitespaces).lowercased()
        var profile: VoiceProfile
        let wanted = name?.isEmpty == false ? name! : server.defaultVoice.lowercased()
        do {
            if let known = voiceMemo.profile(for: wanted) {
                profile = known
            } else {
                profile = try await resolveVoice.execute(name: wanted, language: nil, overrides: VoiceOverrides())
                voiceMemo.remember(profile, for: wanted)
            }
        } catch let .voiceNotFound(missing, suggestions) {
            guard let name, let builtIn = OpenAIVoices.profiles[name] else {
                let hint = suggestions.isEmpty ? "" : " Did you mean \(suggestions.joined(separator: ", "))?"
                throw APIError.badRequest("Unknown voice '\(missing)'.\(hint) GET /v1/audio/voices lists them.", param: "voice", code: "voice_not_found")
            }
            profile = builtIn
        } catch {
            throw Self.apiError(error)
        }
        if let speed {
            let usable = Self.speedRange(for: profile)
            guard speed.isFinite, speed >= usable.lowerBound - 1e-9, speed <= usable.upperBound + 1e-9 else {
                throw APIError.badRequest(
                    "speed \(speed) is more than eSpeak can do with this voice: use \(Self.format(usable.lowerBound)) to \(Self.format(usable.upperBound)) (1.0 is \(profile.rate) words per minute).",
                    param: "speed", code: "speed_out_of_range")
            }
            profile.rate = min(VoiceProfile.rateRange.upperBound, max(VoiceProfile.rateRange.lowerBound, Int((Double(profile.rate) * speed).rounded())))
        }
        return profile
    }

    /// The speeds eSpeak can do with `profile`: OpenAI's 0.25–4.0, narrowed to its rate range.
    static func speedRange(for profile: VoiceProfile) -> ClosedRange<Double> {
        let low = max(0.25, Double(VoiceProfile.rateRange.lowerBound) / Double(profile.rate))
        let high = min(4.0, Double(VoiceProfile.rateRange.upperBound) / Double(profile.rate))
        return ((low * 100).rounded(.up) / 100)...((high * 100).rounded(.down) / 100)
    }

    private static func format(_ value: Double) -> String {
        String(format: "%.2f", value)
    }

    /// A strong validator for what `text` in `voice` gives as `format`: the cache key of the
    /// whole text (engine, version, voice, lexicons, text) with the format.
    func entityTag(text: String, voice: VoiceProfile, format: String) async throws(APIError) -> String {
        do {
            let key = try await repository.cacheKey(for: SpeechRequest(text: TextNormalizer.normalize(text), voice: voice))
            return "\"\(key.prefix(32))-\(format)\""
        } catch {
            throw Self.apiError(error)
        }
    }

    /// Starts speaking `text` once a synthesis slot is free, and waits for its first chunk.
    /// A request whose client goes away while it waits leaves the queue.
    /// - Throws: `APIError`: 429 when the queue is full, 4xx for bad input, 5xx when the
    ///   engine fails on the first chunk.
    func speak(_ text: String, voice: VoiceProfile, channel: (any Channel)?) async throws(APIError) -> SpeechStream {
        let queue = queue
        let admission = Task { try await queue.acquire() }
        channel?.closeFuture.whenComplete { _ in admission.cancel() }
        do {
            try await admission.value
        } catch is SynthesisQueue.Refusal {
            throw APIError(.tooManyRequests, "The service is busy: \(server.queueLimit) requests are waiting already. Retry after a second.", code: "queue_full", retryAfter: 1)
        } catch {
            throw APIError(HTTPResponse.Status(code: 499, reasonPhrase: "Client Closed Request"), "The client went away while waiting.", code: "client_closed")
        }
        metrics.synthesisStarted()
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: SpeechAudio.self, throwing: (any Error).self)
        let speakText = speakText
        let metrics = metrics
        let work = Task {
            do {
                _ = try await speakText.execute(text: text, voice: voice, isSSML: false) { audio throws(SpeechError) in
                    continuation.yield(audio)
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
            metrics.synthesisEnded()
            await queue.release()
        }
        continuation.onTermination = { _ in work.cancel() }
        let speech = SpeechStream(stream)
        do {
            guard let first = try await speech.next() else {
                throw APIError.badRequest("There is no text to speak.", param: "input", code: "empty_input")
            }
            speech.first = first
            return speech
        } catch let error as APIError {
            throw error
        } catch let error as SpeechError {
            throw Self.apiError(error)
        } catch {
            throw APIError(.internalServerError, "Synthesis failed: \(error)", code: "synthesis_failed")
        }
    }

    /// A speech error as an API error (`APIError+SpeechError.swift` words it).
    static func apiError(_ error: SpeechError) -> APIError {
        APIError(error)
    }
}

/// The audio of one request: the first chunk (already synthesized), then the rest as they come.
/// Dropping it before the end stops the synthesis.
final class SpeechStream: @unchecked Sendable {
    // Only the one task serving the request touches it.
    private var iterator: AsyncThrowingStream<SpeechAudio, any Error>.AsyncIterator
    var first: SpeechAudio?

    init(_ stream: AsyncThrowingStream<SpeechAudio, any Error>) {
        iterator = stream.makeAsyncIterator()
    }

    /// The next chunk: `first` once, then the stream's.
    func next() async throws -> SpeechAudio? {
        if let first {
            self.first = nil
            return first
        }
        return try await iterator.next()
    }
}
