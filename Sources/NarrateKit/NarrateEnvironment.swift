import Foundation
import Logging
import NarrateData
import NarrateDomain
import Synchronization

/// The composition root's one value: what a process narrates with, made once from a
/// configuration and passed down. It owns the engine (eSpeak NG's worker processes, or the
/// remote API with eSpeak NG as its fallback), the audio cache and the library, opened when
/// first needed, and makes every use case over them; two use cases made by one environment
/// share its workers, its cache and its remote API's counts. Nothing here is process-wide: an
/// app that makes two environments has two sets of workers.
public final class NarrateEnvironment: Sendable {
    public let configuration: NarrateConfiguration
    public let logger: Logger
    /// eSpeak NG in `narrate-worker` processes: the speech path's engine (or the remote API's
    /// fallback) and the source of the voice list.
    let espeak: EngineWorkerSynthesizer
    /// The remote API's synthesizer, when the configuration names one.
    let remote: RemoteSpeechSynthesizer?
    private let observer: @Sendable (SynthesisEvent) -> Void
    private let storeObserver: @Sendable (CacheStoreEvent) -> Void
    private let voiceRepository: VoiceRepository
    private let opened = Mutex(Opened())

    /// What is opened on first use, once.
    private struct Opened {
        var cache: Result<(any AudioCacheContract)?, SpeechError>?
        /// Why the cache folder could not be written, when it is served read-only.
        var cacheReadOnlyReason: CacheError?
        var repository: (any TTSRepositoryContract)?
        var library: Result<LibraryUseCases, BookError>?
    }

    /// - Parameters:
    ///   - fallbackVoices: profiles for names no preset file or engine voice has (the service's
    ///     OpenAI voice names), so that an installed binary knows them without its `voices/`.
    ///   - observer: told of every cache hit, miss and synthesis of the speech path (the
    ///     service's metrics); it must return quickly.
    ///   - storeObserver: told of every cache store hit, miss, upload and error; likewise.
    public init(
        configuration: NarrateConfiguration = .standard(), logger: Logger, fallbackVoices: [String: VoiceProfile] = [:],
        observer: @escaping @Sendable (SynthesisEvent) -> Void = { _ in },
        storeObserver: @escaping @Sendable (CacheStoreEvent) -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.logger = logger
        self.observer = observer
        self.storeObserver = storeObserver
        // Piper voices are found in the voice folders; each model is hashed once per process.
        let piperVoices = PiperVoiceCatalog(directories: configuration.voiceDirectories)
        // Kokoro voices likewise, in each voice folder's kokoro/.
        let kokoroVoices = KokoroVoiceCatalog(directories: configuration.voiceDirectories)
        let espeak = EngineWorkerSynthesizer(
            workers: configuration.engineWorkers, executable: configuration.workerExecutable,
            environment: RemoteAPIKey.environmentWithoutKeys(), limits: configuration.engineLimits, piperVoices: piperVoices,
            piperModelFolder: configuration.cacheDirectory.map { $0 + "/models" }, kokoroVoices: kokoroVoices
        )
        self.espeak = espeak
        remote = configuration.remote.map { RemoteSpeechSynthesizer(engine: $0, logger: logger) }
        voiceRepository = VoiceRepository(presetDirectories: configuration.voiceDirectories, fallbackPresets: fallbackVoices, piperVoices: piperVoices, kokoroVoices: kokoroVoices) { () throws(SpeechError) in
            (try await espeak.voices(), try await espeak.variants())
        }
    }

    // MARK: - Storage

    /// The audio cache the configuration names, or `nil` when caching is off. A cache folder
    /// that exists but cannot be written (a read-only mount) still serves its audio, with one
    /// warning.
    /// - Throws: `SpeechError.cacheFailed` when the folder cannot be used at all.
    public func audioCache() throws(SpeechError) -> (any AudioCacheContract)? {
        try opened.withLock { opened throws(SpeechError) -> (any AudioCacheContract)? in
            if let cache = opened.cache { return try cache.get() }
            let result: Result<(any AudioCacheContract)?, SpeechError>
            do throws(SpeechError) {
                result = .success(try openCache(&opened.cacheReadOnlyReason))
            } catch {
                result = .failure(error)
            }
            opened.cache = result
            return try result.get()
        }
    }

    private func openCache(_ readOnlyReason: inout CacheError?) throws(SpeechError) -> (any AudioCacheContract)? {
        guard let directory = configuration.cacheDirectory else { return nil }
        do {
            let local = try AudioCache(directory: directory, logger: logger)
            guard let options = configuration.cacheStore else { return local }
            let settings = try options.settings(environment: ProcessInfo.processInfo.environment)
            return TieredAudioCache(
                local: local, store: S3ObjectStore(settings: settings), mode: settings.mode, drainDeadline: settings.drainDeadline,
                queueLimit: settings.uploadQueueLimit, uploadConcurrency: settings.uploadConcurrency, seal: settings.seal, logger: logger, observer: storeObserver)
        } catch let .notWritable(path, reason) {
            guard let readOnly = try? ReadOnlyAudioCache(directory: directory, reason: reason) else {
                throw .cacheFailed(.notWritable(path: path, reason: reason))
            }
            logger.warning("The audio cache \(directory) cannot be written (\(reason)): its audio is used, new audio is not stored\(configuration.cacheStore == nil ? "" : ", and the cache store is not used (it needs a local cache in front)").")
            readOnlyReason = .notWritable(path: path, reason: reason)
            return readOnly
        } catch {
            throw .cacheFailed(error)
        }
    }

    /// The library's use cases over the configured database and parsers, sharing one connection.
    /// - Throws: `BookError.libraryFailed` when the database cannot be opened.
    public func library() throws(BookError) -> LibraryUseCases {
        try opened.withLock { opened throws(BookError) -> LibraryUseCases in
            if let library = opened.library { return try library.get() }
            let result: Result<LibraryUseCases, BookError>
            do throws(BookError) {
                result = .success(try LibraryUseCases(configuration: configuration))
            } catch {
                result = .failure(error)
            }
            opened.library = result
            return try result.get()
        }
    }

    /// The folder rendered files derived from the cache's entries are kept in (the service's
    /// page audio): `responses/` in the cache folder (in a per-user temporary folder without a
    /// cache), cleared with the cache.
    public var renderedFilesDirectory: String {
        AudioCacheLayout(directory: configuration.cacheDirectory ?? NSTemporaryDirectory() + "/narrate-\(getuid())").responses
    }

    /// The folder uploaded book files are kept in: `uploads/` beside the library database.
    public var uploadsDirectory: String {
        URL(fileURLWithPath: configuration.libraryPath).deletingLastPathComponent().appendingPathComponent("uploads").path
    }

    /// Keeps an uploaded book file in `uploadsDirectory` under its SHA-256 (one file per
    /// content), written under a temporary name and renamed; returns its path for the import.
    /// - Throws: `BookError` when it cannot be written.
    public func storeUpload(_ bytes: [UInt8], fileExtension: String) throws(BookError) -> String {
        try BookUploadStore.store(bytes, fileExtension: fileExtension, in: uploadsDirectory)
    }

    // MARK: - Speech

    /// The speech path: the configuration's engine behind the audio cache (if any), told to
    /// the observer. One per environment.
    /// - Throws: `SpeechError.cacheFailed` when the cache cannot be opened.
    public func ttsRepository() throws(SpeechError) -> any TTSRepositoryContract {
        let cache = try audioCache()
        return opened.withLock { opened in
            if let repository = opened.repository { return repository }
            let repository = self.repository(cache: cache, observer: observer)
            opened.repository = repository
            return repository
        }
    }

    /// A repository over `cache` speaking through the configuration's engine; with a remote
    /// API, its usage is counted (hits where `countsHits`).
    func repository(cache: (any AudioCacheContract)?, countsHits: Bool = true, observer: @escaping @Sendable (SynthesisEvent) -> Void) -> TTSRepository {
        guard let remote else {
            return TTSRepository(synthesizer: espeak, cache: cache, logger: logger, observer: observer)
        }
        let usage = remote.usage
        return TTSRepository(
            synthesizer: remote, cache: cache, logger: logger,
            fallback: configuration.fallsBackToESpeak ? espeak : nil
        ) { event in
            switch event {
            case let .cacheHit(_, characters) where countsHits: usage.recordCacheHit(characters: characters)
            case let .fellBack(text): usage.recordFallback(text: text)
            default: break
            }
            observer(event)
        }
    }

    /// How well `voice`'s audio is timed by this environment's engine (eSpeak NG's words; a
    /// neural voice's or a remote API's sentences): what the export manifest records too.
    public func speechTiming(for voice: VoiceProfile) -> SpeechTiming {
        let synthesizer: any SpeechSynthesizerContract = remote ?? espeak
        return synthesizer.timing(for: voice)
    }

    /// What this environment asked of its remote API so far; `nil` without one.
    public var remoteUsage: RemoteUsage? { remote?.usage }

    /// Writes the cache index's pending changes.
    public func flush() async {
        let repository = opened.withLock { $0.repository }
        await repository?.flush()
    }

    /// Waits for the cache store's pending uploads, up to its drain deadline, and says in one
    /// line what was left (nothing without a store). For the end of a program.
    public func finishUploads() async {
        guard case let .success(cache as TieredAudioCache)? = opened.withLock({ $0.cache }) else { return }
        await cache.finish()
    }

    /// Lets the cache store tier go without waiting for its uploads (the work was cancelled);
    /// what is under way ends within its request deadline.
    public func abandonUploads() {
        guard case let .success(cache as TieredAudioCache)? = opened.withLock({ $0.cache }) else { return }
        cache.abandon()
    }

    /// What the cache store tier did in this process; `nil` without a store.
    public var cacheStoreStatistics: CacheStoreStatistics? {
        guard case let .success(cache as TieredAudioCache)? = opened.withLock({ $0.cache }) else { return nil }
        return cache.storeStatistics
    }

    /// Where a clip's samples lie in this environment's cache, for an output that copies them
    /// there in the kernel (`WAVWriter.append(_:)`); `nil` when its entry is no longer the one
    /// this process stored (removed or replaced meanwhile).
    public func entrySource(for clip: SpeechClip) async -> EntrySource? {
        guard let cache = try? audioCache(), let key = AudioCacheKey(hex: clip.cacheKey) else { return nil }
        return await cache.freshSource(key: key)
    }

    /// A clip's audio read from the cache and verified: for when `entrySource(for:)` finds its
    /// entry no longer the one this process stored (another process sharing the cache stored
    /// the same key meanwhile; same key, same samples).
    /// - Throws: `SpeechError.engineUnavailable` when the entry is gone altogether.
    public func audio(for clip: SpeechClip) async throws(SpeechError) -> SpeechAudio {
        guard let cache = try audioCache(), let key = AudioCacheKey(hex: clip.cacheKey), let audio = try? await cache.lookup(key: key) else {
            throw .engineUnavailable(reason: "the audio cache entry \(clip.cacheKey.prefix(12)) was removed while it was being written out; run the command again")
        }
        return audio
    }

    /// Starts the worker processes now (a service does, before it answers).
    /// - Throws: `SpeechError.engineUnavailable` when `narrate-worker` cannot start.
    public func startEngine() throws(SpeechError) {
        try espeak.prestart()
    }

    /// Ends the worker processes and waits for them.
    public func stopEngine() {
        espeak.shutdown()
    }

    /// The engine's workers, running processes and restarts.
    public var engineStatus: EngineStatus {
        EngineStatus(workers: espeak.workerCount, running: espeak.workerProcessIDs.count, restarts: espeak.workerRestarts)
    }

    // MARK: - Use cases

    /// The voice presets (`configuration.voiceDirectories`) and the engine's voices.
    public var voices: any VoiceRepositoryContract { voiceRepository }

    /// Resolving a voice name (or a text's language) and overrides to a voice profile.
    public var resolveVoice: any ResolveVoiceUseCaseContract { ResolveVoiceUseCase(repository: voiceRepository) }

    /// Choosing the voice of a text or a book, with the lexicons in force.
    public var chooseVoice: any ChooseVoiceUseCaseContract { ChooseVoiceUseCase(voices: resolveVoice) }

    /// Listing presets and engine voices.
    public var getVoices: any GetVoicesUseCaseContract { GetVoicesUseCase(repository: voiceRepository) }

    /// The remote API the preset `name` names, read from the preset files alone (no engine start).
    public func presetRemote(named name: String) -> RemoteVoice? {
        voiceRepository.preset(named: name)?.remote
    }

    /// Speaking a text of any length through the speech path.
    /// - Parameter firstChunkAlone: synthesize the first chunk before the others start, for the
    ///   soonest first sound (a streaming service); otherwise chunks start four at a time.
    public func speakText(firstChunkAlone: Bool = false) throws(SpeechError) -> any SpeakTextUseCaseContract {
        SpeakTextUseCase(repository: try ttsRepository(), firstChunkAlone: firstChunkAlone)
    }

    /// A page of a book and the voice that reads it, before synthesis.
    public func resolvePageSpeech() throws(BookError) -> any ResolvePageSpeechUseCaseContract {
        ResolvePageSpeechUseCase(books: try library().getBookDetail, voices: chooseVoice)
    }

    /// Narrating a page from a book reference (`narrate page`, the service's page audio).
    /// - Throws: `BookError.libraryFailed`, `SpeechError.cacheFailed`.
    public func narratePage() throws -> any NarratePageUseCaseContract {
        NarratePageUseCase(pages: try resolvePageSpeech(), narrator: try narratePageSpeech())
    }

    /// Narrating a page already resolved by `resolvePageSpeech()` (the service's page audio).
    /// - Throws: `SpeechError.cacheFailed`.
    public func narratePageSpeech() throws(SpeechError) -> any NarratePageSpeechUseCaseContract {
        NarratePageSpeechUseCase(ttsRepository: try ttsRepository())
    }

    /// Narrating the page after the saved reading progress, and saving the new progress.
    /// - Throws: `BookError.libraryFailed`, `SpeechError.cacheFailed`.
    public func narrateNextPage() throws -> any NarrateNextPageUseCaseContract {
        let library = try library()
        return NarrateNextPageUseCase(
            books: library.getBookDetail, voices: chooseVoice, bookRepository: library.bookRepository,
            ttsRepository: try ttsRepository(), clock: { Date() }
        )
    }

    /// Exporting a book to audio files, resumably: `configuration.engineWorkers` chunks (or
    /// remote requests) at once, through the audio cache, which is what makes an export
    /// resumable.
    /// - Throws: `ExportError.speech(.cacheFailed(.disabled))` when the cache is off,
    ///   `.speech(.cacheFailed)` when it cannot be opened or written, `.book` when the library cannot.
    public func exportBook() async throws(ExportError) -> any ExportBookUseCaseContract {
        guard configuration.cacheDirectory != nil else {
            // The cache is what makes an export resumable and parallel.
            throw .speech(.cacheFailed(.disabled))
        }
        let cache: any AudioCacheContract
        do throws(SpeechError) {
            guard let opened = try audioCache() else { throw .cacheFailed(.disabled) }
            cache = opened
        } catch {
            throw .speech(error)
        }
        if let reason = opened.withLock({ $0.cacheReadOnlyReason }) { throw .speech(.cacheFailed(reason)) }
        let library: LibraryUseCases
        do { library = try self.library() } catch { throw .book(error) }
        let synthesizer: any SpeechSynthesizerContract = remote ?? espeak
        // Cache hits are counted where chunks are looked up, not when files read them back.
        let repository = self.repository(cache: cache, countsHits: false) { _ in }
        let usage = remote?.usage
        let exporter = BookExporter(
            cache: cache, repository: repository, synthesizer: synthesizer, logger: logger,
            hasFallback: remote != nil && configuration.fallsBackToESpeak, onCached: { usage?.recordCacheHit(characters: $0) }
        )
        return ExportBookUseCase(books: library.getBookDetail, voices: chooseVoice, exporter: exporter)
    }
}

/// The state of an environment's engine: its worker processes.
public struct EngineStatus: Sendable, Equatable {
    /// How many texts it synthesizes at once.
    public var workers: Int
    /// Worker processes running now.
    public var running: Int
    /// Workers found dead (crashed or killed) and replaced.
    public var restarts: Int
}
