import Foundation
import Logging
import NarrateData
import NarrateDomain

// The composition root: the only place that knows concrete types from both sides. An app, the
// CLI and the service make one `NarrateEnvironment` and take every use case from it; the
// functions below are shorthands for an app that needs one piece, each over an environment of
// its own (so each has its own worker processes).

/// The speech path: eSpeak NG (in `narrate-worker` processes), or the configuration's remote
/// API (with eSpeak NG as its fallback when the configuration says so), behind `cache` (none:
/// every request is synthesized).
/// - Parameter observer: told of every cache hit, miss and synthesis.
public func makeTTSRepository(
    configuration: NarrateConfiguration = .standard(), cache: (any AudioCacheContract)?, logger: Logger,
    observer: @escaping @Sendable (SynthesisEvent) -> Void = { _ in }
) -> any TTSRepositoryContract {
    var configuration = configuration
    configuration.cacheDirectory = nil
    let environment = NarrateEnvironment(configuration: configuration, logger: logger)
    return environment.repository(cache: cache, observer: observer)
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

/// The audio cache the configuration names, or `nil` when caching is off. A cache folder that
/// exists but cannot be written (a read-only mount) still serves its audio, with one warning.
public func makeAudioCache(configuration: NarrateConfiguration, logger: Logger) throws(SpeechError) -> (any AudioCacheContract)? {
    try NarrateEnvironment(configuration: configuration, logger: logger).audioCache()
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

/// Finding a text's quotations, characters and speakers (`narrate cast`).
public func makeGetDialogueUseCase() -> any GetDialogueUseCaseContract {
    GetDialogueUseCase()
}

/// Speaking a text of any length through `repository` (see `makeTTSRepository`).
/// - Parameter firstChunkAlone: synthesize the first chunk before the others start, for the
///   soonest first sound (a streaming service); otherwise chunks start four at a time.
public func makeSpeakTextUseCase(repository: any TTSRepositoryContract, firstChunkAlone: Bool = false) -> any SpeakTextUseCaseContract {
    SpeakTextUseCase(repository: repository, firstChunkAlone: firstChunkAlone)
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
    /// A book's bookmarks.
    public let getBookmarks: any GetBookmarksUseCaseContract
    /// Marking a place in a book, with a note.
    public let addBookmark: any AddBookmarkUseCaseContract
    /// Removing a bookmark.
    public let removeBookmark: any RemoveBookmarkUseCaseContract
    let bookRepository: any BookRepositoryContract

    /// The library's use cases over the configured database (created on first use) and parsers
    /// (with the configuration's page length for books without printed pages).
    /// - Throws: `BookError.libraryFailed` when the database cannot be opened.
    init(configuration: NarrateConfiguration) throws(BookError) {
        let database = try LibraryDatabase.openFile(at: configuration.libraryPath)
        let library = BookRepository(database: database)
        let bookmarks = BookmarkRepository(database: database)
        let factory = DocumentParserFactory(pdf: PDFParser(password: configuration.pdfPassword, executable: configuration.pdfReaderExecutable))
        let source = FileBookSourceRepository(factory: factory, options: ParseOptions(wordsPerPage: configuration.wordsPerPage))
        let matter = configuration.includesMatter
        importBook = ImportBookUseCase(bookRepository: library, sourceRepository: source)
        getBooks = GetBooksUseCase(repository: library)
        getBookDetail = GetBookDetailUseCase(bookRepository: library, sourceRepository: source, includesMatter: matter)
        searchBooks = SearchBooksUseCase(repository: library)
        deleteBook = DeleteBookUseCase(bookRepository: library, sourceRepository: source)
        getTableOfContents = GetTableOfContentsUseCase(bookRepository: library, sourceRepository: source, includesMatter: matter)
        getPages = GetPagesUseCase(bookRepository: library, sourceRepository: source, includesMatter: matter)
        getPage = GetPageUseCase(bookRepository: library, sourceRepository: source, includesMatter: matter)
        updateReadingProgress = UpdateReadingProgressUseCase(repository: library, clock: { Date() })
        getBookmarks = GetBookmarksUseCase(books: getBookDetail, repository: bookmarks)
        addBookmark = AddBookmarkUseCase(books: getBookDetail, repository: bookmarks, clock: { Date() })
        removeBookmark = RemoveBookmarkUseCase(books: getBookDetail, repository: bookmarks)
        bookRepository = library
    }
}

/// The library's use cases over the configured database and parsers.
/// - Throws: `BookError.libraryFailed` when the database cannot be opened.
public func makeLibraryUseCases(configuration: NarrateConfiguration) throws(BookError) -> LibraryUseCases {
    try LibraryUseCases(configuration: configuration)
}

/// Narrating a page from a book reference, as `narrate page` does: the library, the voices and
/// the speech path (through the cache, when the configuration has one) wired together.
/// - Throws: `BookError.libraryFailed` when the library cannot be opened, `SpeechError` when
///   the cache cannot be.
public func makeNarratePageUseCase(configuration: NarrateConfiguration = .standard(), logger: Logger) throws -> any NarratePageUseCaseContract {
    try NarrateEnvironment(configuration: configuration, logger: logger).narratePage()
}

/// Narrating a page of a book already in hand, from the cache where it can.
public func makeGetPageNarrationUseCase(repository: any TTSRepositoryContract) -> any GetPageNarrationUseCaseContract {
    GetPageNarrationUseCase(ttsRepository: repository)
}

/// Narrating a page anew, replacing its cached audio.
public func makeRefreshPageNarrationUseCase(repository: any TTSRepositoryContract) -> any RefreshPageNarrationUseCaseContract {
    RefreshPageNarrationUseCase(ttsRepository: repository)
}

/// Listing presets and engine voices.
public func makeGetVoicesUseCase(configuration: NarrateConfiguration) -> any GetVoicesUseCaseContract {
    NarrateEnvironment(configuration: configuration, logger: Logger(label: "narrate")).getVoices
}

/// Resolving a voice name (or a text's language) and overrides to a voice profile.
public func makeResolveVoiceUseCase(configuration: NarrateConfiguration) -> any ResolveVoiceUseCaseContract {
    NarrateEnvironment(configuration: configuration, logger: Logger(label: "narrate")).resolveVoice
}

/// The export use case: `jobs` chunks synthesized at once, each in a `narrate-worker` process
/// (found as `ESpeakWorkerLocator` says, or at `workerExecutable`), or `jobs` requests in
/// flight to a remote API, through the audio cache (which is what makes an export resumable).
/// - Throws: `ExportError.speech(.cacheFailed(.disabled))` when the cache is off, `.speech(.cacheFailed)`
///   when it cannot be opened.
public func makeExportBookUseCase(configuration: NarrateConfiguration, jobs: Int, logger: Logger, workerExecutable: String? = nil) async throws(ExportError) -> any ExportBookUseCaseContract {
    var configuration = configuration
    configuration.engineWorkers = max(1, jobs)
    if let workerExecutable { configuration.workerExecutable = workerExecutable }
    configuration.remote?.concurrency = jobs
    return try await NarrateEnvironment(configuration: configuration, logger: logger).exportBook()
}

/// A text file's text: UTF-8, UTF-16 with a byte-order mark, or Windows-1252 (`narrate say -f`).
/// - Throws: `BookError` when the file cannot be read.
public func readTextFile(path: String) throws(BookError) -> String {
    try TextFileReader.read(path: path)
}

/// Standard input's text, decoded as `readTextFile` decodes a file.
public func readStandardInputText() -> String {
    TextFileReader.readStandardInput()
}

/// Removes the temporary files this process is writing (outputs and cache entries not yet
/// renamed into place): what a signal handler does before the process ends.
public func removeTemporaryFiles() {
    TemporaryFileRegistry.removeAll()
}

/// Writes `chunks` whole as one audio file in `format` at `path`, under a temporary name renamed
/// into place (WAV and MP3 in this process, the others through ffmpeg).
public func writeAudioFile(_ chunks: [SpeechAudio], format: StreamFormat, to path: String) async throws {
    try await AudioFileRenderer.write(chunks, format: format, to: path)
}
