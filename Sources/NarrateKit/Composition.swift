import Foundation
import Logging
import NarrateData
import NarrateDomain
import Synchronization

// The composition root: the only place that knows concrete types from both sides.

/// The speech path: eSpeak NG (in `narrate-worker` processes), or the configuration's remote
/// API (with eSpeak NG as its fallback when the configuration says so), behind `cache` (none:
/// every request is synthesized).
/// - Parameter observer: told of every cache hit, miss and synthesis (the service's metrics).
public func makeTTSRepository(
    configuration: NarrateConfiguration = .standard(), cache: (any AudioCacheContract)?, logger: Logger,
    observer: @escaping @Sendable (SynthesisEvent) -> Void = { _ in }
) -> any TTSRepositoryContract {
    guard let remote = configuration.remote else {
        return TTSRepository(synthesizer: speechEngine(configuration), cache: cache, logger: logger, observer: observer)
    }
    let synthesizer = remoteEngine(remote, logger: logger)
    let usage = synthesizer.usage
    return TTSRepository(
        synthesizer: synthesizer, cache: cache, logger: logger,
        fallback: configuration.fallsBackToESpeak ? speechEngine(configuration) : nil
    ) { event in
        switch event {
        case let .cacheHit(_, characters): usage.recordCacheHit(characters: characters)
        case let .fellBack(text): usage.recordFallback(text: text)
        default: break
        }
        observer(event)
    }
}

/// What this process asked of the configuration's remote API so far (characters sent, from the
/// cache, spoken by eSpeak instead); `nil` without a remote engine.
/// - Parameter logger: the remote engine's, if this makes it (retries are logged at `.debug`).
public func remoteUsage(configuration: NarrateConfiguration, logger: Logger) -> RemoteUsage? {
    configuration.remote.map { remoteEngine($0, logger: logger).usage }
}

/// One remote synthesizer per remote engine in this process: one count of characters, one cap.
private let remoteEngines = Mutex<[RemoteSpeechEngine: RemoteSpeechSynthesizer]>([:])

func remoteEngine(_ engine: RemoteSpeechEngine, logger: Logger) -> RemoteSpeechSynthesizer {
    remoteEngines.withLock { engines in
        if let synthesizer = engines[engine] { return synthesizer }
        let synthesizer = RemoteSpeechSynthesizer(engine: engine, logger: logger)
        engines[engine] = synthesizer
        return synthesizer
    }
}

/// The state of the configuration's engine: its worker processes.
public struct EngineStatus: Sendable, Equatable {
    /// How many texts it synthesizes at once.
    public var workers: Int
    /// Worker processes running now.
    public var running: Int
    /// Workers found dead (crashed or killed) and replaced.
    public var restarts: Int
}

/// Starts the configuration's worker processes now (a service does, before it answers).
/// - Throws: `SpeechError.engineUnavailable` when `narrate-worker` cannot start.
public func startEngine(configuration: NarrateConfiguration) throws(SpeechError) {
    try speechEngine(configuration).prestart()
}

/// Ends the configuration's worker processes and waits for them.
public func stopEngine(configuration: NarrateConfiguration) {
    speechEngine(configuration).shutdown()
}

/// The configuration's engine: workers, running processes, restarts.
public func engineStatus(configuration: NarrateConfiguration) -> EngineStatus {
    let engine = speechEngine(configuration)
    return EngineStatus(workers: engine.workerCount, running: engine.workerProcessIDs.count, restarts: engine.workerRestarts)
}

/// An encoder that turns PCM at `sampleRate` into `format` as it arrives (WAV, MP3 and PCM
/// resampled to 24 kHz in this process, the others through ffmpeg). A WAV whose `knownSampleCount` is given has exact sizes.
/// - Throws: `ExportError.ffmpegMissing` when ffmpeg is needed and missing.
public func makeAudioStreamEncoder(format: StreamFormat, sampleRate: Int, knownSampleCount: Int? = nil) throws(ExportError) -> any AudioStreamEncoder {
    switch format {
    case .wav: try PCMStreamEncoder(.wav(knownSampleCount: knownSampleCount), sampleRate: sampleRate)
    case .mp3: try PCMStreamEncoder(.mp3(bitrate: 64), sampleRate: sampleRate)
    case .pcm: try PCMStreamEncoder(.pcm(rate: StreamFormat.pcmSampleRate), sampleRate: sampleRate)
    case .flac, .opus, .aac: try FFmpegStreamEncoder(format: format, sampleRate: sampleRate)
    }
}

/// One engine (one set of worker processes) per engine configuration in this process, shared by
/// the speech path and the voice list.
private let engines = Mutex<[EngineSettings: ESpeakSynthesizer]>([:])

private struct EngineSettings: Hashable {
    var workers: Int
    var executable: String?
    var timeout: Duration
}

func speechEngine(_ configuration: NarrateConfiguration) -> ESpeakSynthesizer {
    let settings = EngineSettings(workers: configuration.engineWorkers, executable: configuration.workerExecutable, timeout: configuration.engineTimeout)
    return engines.withLock { engines in
        if let engine = engines[settings] { return engine }
        let engine = ESpeakSynthesizer(
            workers: settings.workers, executable: settings.executable,
            environment: RemoteAPIKey.environmentWithoutKeys(), limits: configuration.engineLimits
        )
        engines[settings] = engine
        return engine
    }
}

/// The audio cache the configuration names, or `nil` when caching is off. A cache folder that
/// exists but cannot be written (a read-only mount) still serves its audio, with one warning.
public func makeAudioCache(configuration: NarrateConfiguration, logger: Logger) throws(SpeechError) -> (any AudioCacheContract)? {
    guard let directory = configuration.cacheDirectory else { return nil }
    do {
        return try AudioCache(directory: directory, logger: logger)
    } catch let .notWritable(path, reason) {
        guard let readOnly = try? ReadOnlyAudioCache(directory: directory, reason: reason) else {
            throw .cacheFailed(.notWritable(path: path, reason: reason))
        }
        logger.warning("The audio cache \(directory) cannot be written (\(reason)): its audio is used, new audio is not stored.")
        return readOnly
    } catch {
        throw .cacheFailed(error)
    }
}

/// The user's own PLS lexicons (`--lexicon`), read and checked.
/// - Throws: `PronunciationError` naming the first file that cannot be used.
public func loadLexicons(paths: [String]) throws(PronunciationError) -> [PronunciationLexicon] {
    try LexiconFileReader.read(paths)
}

/// What eSpeak will be given for a text (`narrate text --phonemes`).
public func makeGetSpokenTextUseCase() -> any GetSpokenTextUseCaseContract {
    GetSpokenTextUseCase()
}

/// Speaking a text of any length through `repository` (see `makeTTSRepository`).
/// - Parameter firstChunkAlone: synthesize the first chunk before the others start, for the
///   soonest first sound (a streaming service); otherwise chunks start four at a time.
public func makeSpeakTextUseCase(repository: any TTSRepositoryContract, firstChunkAlone: Bool = false) -> any SpeakTextUseCaseContract {
    SpeakTextUseCase(repository: repository, firstChunkAlone: firstChunkAlone)
}

/// The book file parsers (EPUB 2/3, plain text, HTML, Markdown), with the configuration's page
/// length for books without printed pages.
public func makeBookSourceRepository(configuration: NarrateConfiguration) -> any BookSourceRepositoryContract {
    FileBookSourceRepository(options: ParseOptions(wordsPerPage: configuration.wordsPerPage))
}

/// The book library at `configuration.libraryPath` (created on first use).
/// - Throws: `BookError.libraryFailed` when the database cannot be opened.
public func makeBookRepository(configuration: NarrateConfiguration) throws(BookError) -> any BookRepositoryContract {
    BookRepository(database: try LibraryDatabase.openFile(at: configuration.libraryPath))
}

/// Everything that works on the library, sharing one database connection.
public struct LibraryUseCases: Sendable {
    /// Adding a book file to the library.
    public let importBook: any ImportBookUseCaseContract
    /// Listing the library.
    public let getBooks: any GetBooksUseCaseContract
    /// Finding a book by file, id or title (what every book command starts with).
    public let getBookDetail: any GetBookDetailUseCaseContract
    /// Full-text search.
    public let searchBooks: any SearchBooksUseCaseContract
    /// Removing a book.
    public let deleteBook: any DeleteBookUseCaseContract
    /// A book's chapters with their pages.
    public let getTableOfContents: any GetTableOfContentsUseCaseContract
    /// A book with all its pages.
    public let getPages: any GetPagesUseCaseContract
    /// One page of a book.
    public let getPage: any GetPageUseCaseContract
    /// Saving where the reader stopped.
    public let updateReadingProgress: any UpdateReadingProgressUseCaseContract
    let bookRepository: any BookRepositoryContract
}

/// The library's use cases over the configured database and parsers.
public func makeLibraryUseCases(configuration: NarrateConfiguration) throws(BookError) -> LibraryUseCases {
    let library = try makeBookRepository(configuration: configuration)
    let source = makeBookSourceRepository(configuration: configuration)
    return LibraryUseCases(
        importBook: ImportBookUseCase(bookRepository: library, sourceRepository: source),
        getBooks: GetBooksUseCase(repository: library),
        getBookDetail: GetBookDetailUseCase(bookRepository: library, sourceRepository: source, includesMatter: configuration.includesMatter),
        searchBooks: SearchBooksUseCase(repository: library),
        deleteBook: DeleteBookUseCase(bookRepository: library, sourceRepository: source),
        getTableOfContents: GetTableOfContentsUseCase(bookRepository: library, sourceRepository: source, includesMatter: configuration.includesMatter),
        getPages: GetPagesUseCase(bookRepository: library, sourceRepository: source, includesMatter: configuration.includesMatter),
        getPage: GetPageUseCase(bookRepository: library, sourceRepository: source, includesMatter: configuration.includesMatter),
        updateReadingProgress: UpdateReadingProgressUseCase(repository: library, clock: { Date() }),
        bookRepository: library
    )
}

/// Narrating a page from a book reference, as `narrate page` does: the library, the voices and
/// the speech path (through the cache, when the configuration has one) wired together.
/// - Throws: `BookError.libraryFailed` when the library cannot be opened, `SpeechError` when
///   the cache cannot be.
public func makeNarratePageUseCase(configuration: NarrateConfiguration = .standard(), logger: Logger) throws -> any NarratePageUseCaseContract {
    let library = try makeLibraryUseCases(configuration: configuration)
    let cache = try makeAudioCache(configuration: configuration, logger: logger)
    return NarratePageUseCase(
        books: library.getBookDetail,
        voices: makeResolveVoiceUseCase(configuration: configuration),
        ttsRepository: makeTTSRepository(configuration: configuration, cache: cache, logger: logger)
    )
}

/// Narrating a page of a book already in hand, from the cache where it can.
public func makeGetPageNarrationUseCase(repository: any TTSRepositoryContract) -> any GetPageNarrationUseCaseContract {
    GetPageNarrationUseCase(ttsRepository: repository)
}

/// Narrating a page anew, replacing its cached audio.
public func makeRefreshPageNarrationUseCase(repository: any TTSRepositoryContract) -> any RefreshPageNarrationUseCaseContract {
    RefreshPageNarrationUseCase(ttsRepository: repository)
}

/// Narrating the page after the saved reading progress, and saving the new progress.
public func makeNarrateNextPageUseCase(library: LibraryUseCases, repository: any TTSRepositoryContract) -> any NarrateNextPageUseCaseContract {
    NarrateNextPageUseCase(bookRepository: library.bookRepository, ttsRepository: repository, clock: { Date() })
}

/// The voice presets (`configuration.voiceDirectories`) and the engine's voices.
public func makeVoiceRepository(configuration: NarrateConfiguration) -> any VoiceRepositoryContract {
    let synthesizer = speechEngine(configuration)
    return VoiceRepository(presetDirectories: configuration.voiceDirectories) { () throws(SpeechError) in
        (try await synthesizer.voices(), try await synthesizer.variants())
    }
}

/// The remote API the preset `name` names, if `name` is a preset that names one: read from the
/// preset files alone, so asking costs no engine start.
public func presetRemote(named name: String, configuration: NarrateConfiguration) -> RemoteVoice? {
    VoiceRepository(presetDirectories: configuration.voiceDirectories) { () throws(SpeechError) in ([], []) }.preset(named: name)?.remote
}

/// Listing presets and engine voices.
public func makeGetVoicesUseCase(configuration: NarrateConfiguration) -> any GetVoicesUseCaseContract {
    GetVoicesUseCase(repository: makeVoiceRepository(configuration: configuration))
}

/// Resolving a voice name (or a text's language) and overrides to a voice profile.
public func makeResolveVoiceUseCase(configuration: NarrateConfiguration) -> any ResolveVoiceUseCaseContract {
    ResolveVoiceUseCase(repository: makeVoiceRepository(configuration: configuration))
}
