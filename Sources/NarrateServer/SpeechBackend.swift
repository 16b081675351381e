import Foundation
import HTTPTypes
import Logging
import NIOCore
import NarrateDomain
import NarrateKit
import Synchronization

/// What every front door of the service shares: the speech path through the cache (the same
/// cache and keys as the CLI), the voices, the library, the admission queue and the metrics.
/// HTTP and Wyoming both speak through `speak`.
final class SpeechBackend: Sendable {
    /// What the service narrates with: one engine, cache and library for every request.
    let environment: NarrateEnvironment
    let server: ServerConfiguration
    let repository: any TTSRepositoryContract
    let speakText: any SpeakTextUseCaseContract
    let chooseVoice: any ChooseVoiceUseCaseContract
    let getVoices: any GetVoicesUseCaseContract
    let library: LibraryUseCases
    /// A page and its voice, for the page audio's entity tag before it is rendered.
    let resolvePageSpeech: any ResolvePageSpeechUseCaseContract
    /// A resolved page's audio: the second half of `narrate page`'s use case.
    let narratePage: any NarratePageSpeechUseCaseContract
    let queue: SynthesisQueue
    let metrics: ServerMetrics
    let logger: Logger
    let pageMemo: PageAudioMemo
    /// Voice names resolved in the last few seconds: resolving reads every preset file, and an
    /// eSpeak name asks a worker for its voice list.
    let voiceMemo: VoiceMemo
    /// Page renderings in progress, shared by the requests that want the same file.
    let renders = RenderFlights()
    /// What a client is told of an error and what the log keeps (HTTP and Wyoming alike).
    let disclosure: ErrorDisclosure
    private let unavailable = Mutex<String?>(nil)
    /// Why the engine could not start, while it cannot: the service then serves what the cache
    /// holds and answers the rest 503.
    var synthesisProblem: String? {
        get { unavailable.withLock { $0 } }
        set { unavailable.withLock { $0 = newValue } }
    }
    /// Books exported for download; none without a cache (it is what makes them resumable).
    let exports: ExportJobs?

    var configuration: NarrateConfiguration { environment.configuration }

    /// - Parameter now: the clock the memos expire on (a test moves it by hand).
    init(configuration: NarrateConfiguration, server: ServerConfiguration, logger: Logger, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) throws {
        pageMemo = PageAudioMemo(now: now)
        voiceMemo = VoiceMemo(now: now)
        self.server = server
        self.logger = logger
        let metrics = ServerMetrics()
        self.metrics = metrics
        environment = NarrateEnvironment(
            configuration: configuration, logger: logger, fallbackVoices: OpenAIVoices.profiles,
            observer: { event in
                metrics.record(event)
                RequestRecord.current?.record(event)
            },
            storeObserver: { metrics.record($0) }
        )
        let disclosure = ErrorDisclosure(environment: environment, logger: logger)
        self.disclosure = disclosure
        repository = try environment.ttsRepository()
        speakText = try environment.speakText(firstChunkAlone: true)
        chooseVoice = environment.chooseVoice
        getVoices = environment.getVoices
        library = try environment.library()
        resolvePageSpeech = try environment.resolvePageSpeech()
        narratePage = try environment.narratePageSpeech()
        let queue = SynthesisQueue(slots: configuration.engineWorkers, limit: server.queueLimit)
        self.queue = queue
        exports = configuration.cacheDirectory.map { cache in
            ExportJobs(
                directory: cache + "/exports", limits: .init(maxBytes: server.exportsMaxBytes, maxAge: server.exportsMaxAge),
                run: { job, folder, progress in try await Self.export(job, into: folder, configuration: configuration, logger: logger, progress: progress) },
                admit: { try await queue.acquireInBackground() }, release: { await queue.release() },
                disclose: { [disclosure] error in disclosure.disclosed(error, context: "export") })
        }
    }

    /// Exports `job`'s book into `folder` as `narrate book` would (one file, or a read-along
    /// EPUB), with an engine worker of its own; gives the file.
    static func export(
        _ job: ExportJob, into folder: String, configuration: NarrateConfiguration, logger: Logger, progress: @escaping @Sendable (Int, Int) -> Void
    ) async throws -> (path: String, bytes: Int64) {
        var settings = configuration
        settings.engineWorkers = 1
        settings.remote?.concurrency = 1
        let environment = NarrateEnvironment(configuration: settings, logger: logger, fallbackVoices: OpenAIVoices.profiles)
        defer { environment.stopEngine() }
        let format = ExportFormat(rawValue: job.format) ?? .m4b
        var options = BookExportOptions(
            directory: folder, split: format == .epub ? .chapter : .book, format: format, selection: job.chapters.map { .chapters($0[0]...$0[1]) } ?? .all)
        let summary: ExportSummary
        let voice = VoiceRequest(name: job.voice, speed: job.speed)
        do {
            if job.cast == "auto" { options.cast = try await Self.autoCast(reading: job.book_id, voice: voice, in: environment) }
            summary = try await environment.exportBook().execute(reference: job.book_id, voice: voice, options: options) { event in
                if case let .progress(report) = event { progress(report.chunksDone, report.chunksTotal) }
            }
        } catch {
            // What it uploaded so far goes to the store, unless it was cancelled; either way the
            // tier is let go, so that nothing of a failed export stays in memory.
            if Task.isCancelled { environment.abandonUploads() } else { await environment.finishUploads() }
            // The log has the folder; the client, the reason.
            logger.error("Export \(job.id) of '\(job.title.escapedExcerpt(limit: 200))' failed: \(error.description.escapedExcerpt(limit: 2_000))")
            throw APIError(.internalServerError, error.description.replacingOccurrences(of: folder, with: "the export's folder"), code: "export_failed")
        }
        guard let name = format == .epub ? FileName.readable(job.title) + ".epub" : summary.files.first?.fileName else {
            await environment.finishUploads()
            throw APIError(.internalServerError, "The export made no file.", code: "export_failed")
        }
        let path = folder + "/" + name
        // The export's audio goes to the cache store too (within its drain deadline).
        await environment.finishUploads()
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber
        return ("files/" + name, bytes?.int64Value ?? 0)
    }

    /// The proposed cast of the book `reference` names, read with `voice`, its errors an export's.
    private static func autoCast(reading reference: String, voice: VoiceRequest, in environment: NarrateEnvironment) async throws(ExportError) -> VoiceCast {
        let book: Book
        do { book = try await environment.library().getPages.execute(reference: reference).book } catch { throw .book(error) }
        do { return try await environment.cast(.auto, voice: voice, reading: book) } catch { throw .speech(error) }
    }

    /// The profile for a voice name (a preset, an installed Piper voice, an eSpeak voice or one
    /// of OpenAI's names) at `speed` (1 is the voice's own rate). A client names what the
    /// catalog lists, never a file (`VoiceRequest`'s default naming, `VoiceNameRule`).
    /// - Throws: `APIError` 400 naming the parameter.
    func voice(named name: String?, speed: Double?) async throws(APIError) -> VoiceProfile {
        let name = name?.trimmingCharacters(in: .whitespaces).lowercased()
        let wanted = name?.isEmpty == false ? name! : server.defaultVoice.lowercased()
        let key = "\(wanted)\u{1F}\(speed.map { String($0) } ?? "")"
        if let known = voiceMemo.profile(for: key) { return known }
        do {
            // The voice choice and the speed rule `narrate say` and every front end share.
            let profile = try await chooseVoice.execute(VoiceRequest(name: wanted, speed: speed), reading: nil).profile
            voiceMemo.remember(profile, for: key)
            return profile
        } catch {
            throw Self.apiError(error)
        }
    }

    /// A strong validator for what `request` gives as `format`: the cache key of the whole text
    /// (engine, version, voice, lexicons, text) with the format.
    func entityTag(for request: SpeechRequest, format: String) async throws(APIError) -> String {
        do {
            let key = try await repository.cacheKey(for: request)
            return "\"\(key.prefix(32))-\(format)\""
        } catch {
            throw Self.apiError(error)
        }
    }

    /// Waits for a synthesis slot; a request whose client goes away while it waits leaves the
    /// queue. The caller gives the slot back with `queue.release()`.
    /// - Throws: `APIError` 429 when the queue is full, 499 when the client went away.
    func admit(channel: (any Channel)?) async throws(APIError) {
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
    }

    /// Starts speaking `text` once a synthesis slot is free, and waits for its first chunk.
    /// A request whose client goes away while it waits leaves the queue.
    /// - Throws: `APIError`: 429 when the queue is full, 4xx for bad input, 5xx when the
    ///   engine fails on the first chunk.
    func speak(_ text: SpeechText, voice: VoiceProfile, channel: (any Channel)?) async throws(APIError) -> SpeechStream {
        try await admit(channel: channel)
        let queue = queue
        metrics.synthesisStarted()
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: SpeechAudio.self, throwing: (any Error).self)
        let speakText = speakText
        let metrics = metrics
        let work = Task {
            do {
                _ = try await speakText.execute(text: text, voice: voice) { audio throws(SpeechError) in
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
                // A text with a chunk gives audio or an error; an empty one is refused before.
                throw APIError(.internalServerError, "No audio came.", code: "synthesis_failed")
            }
            speech.first = first
            return speech
        } catch let error as APIError {
            throw error
        } catch let error as SpeechError {
            throw Self.apiError(error)
        } catch {
            throw APIError(.internalServerError, "Synthesis failed; the service's log says why.", code: "synthesis_failed", detail: "Synthesis failed: \(error)")
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
