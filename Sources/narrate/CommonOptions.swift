import ArgumentParser
import Foundation
import Logging
import NarrateKit

/// Options every speaking command takes: the voice, its parameters, the cache and logging.
struct CommonOptions: ParsableArguments {
    @Option(name: .long, help: "A preset from voices/ (default: narrator) or an eSpeak voice (en-us, fr, de, en+f3). See 'narrate voices'.")
    var voice: String?

    @Option(name: [.short, .long], help: "Speaking rate in words per minute (80–450).")
    var rate: Int?

    @Option(name: [.short, .long], help: "Pitch (0–99).")
    var pitch: Int?

    @Option(name: [.short, .long], help: "Volume (0–200, 100 is normal).")
    var volume: Int?

    @Option(name: .customLong("word-gap"), help: "Extra pause between words, in units of 10 ms.")
    var wordGap: Int?

    @Option(name: [.short, .long], help: "Texts synthesized at once, each in an eSpeak worker process (default: the number of cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @OptionGroup var pronunciation: PronunciationOptions

    @OptionGroup var storage: StorageOptions

    @Flag(name: .customLong("no-cache"), help: "Neither read nor write the audio cache.")
    var noCache = false

    var overrides: VoiceOverrides {
        VoiceOverrides(rate: rate, pitch: pitch, volume: volume, wordGap: wordGap)
    }

    func validate() throws {
        if let rate, !VoiceProfile.rateRange.contains(rate) { throw ValidationError("--rate must be from 80 to 450 (got \(rate)).") }
        if let pitch, !VoiceProfile.pitchRange.contains(pitch) { throw ValidationError("--pitch must be from 0 to 99 (got \(pitch)).") }
        if let volume, !VoiceProfile.volumeRange.contains(volume) { throw ValidationError("--volume must be from 0 to 200 (got \(volume)).") }
        if let wordGap, !VoiceProfile.wordGapRange.contains(wordGap) { throw ValidationError("--word-gap must be from 0 to 1000 (got \(wordGap)).") }
        if jobs < 1 || jobs > 256 { throw ValidationError("--jobs must be from 1 to 256 (got \(jobs)).") }
    }

    func configuration() -> NarrateConfiguration {
        var configuration = storage.configuration()
        if noCache { configuration.cacheDirectory = nil }
        configuration.engineWorkers = jobs
        return configuration
    }

    /// What every speaking command needs: the voice (for `language` when none is named), the
    /// cache (to flush at the end) and the speech path through it.
    func speech(configuration: NarrateConfiguration, language: String?, logger: Logger) async throws -> Speech {
        let choice = try await makeResolveVoiceUseCase(configuration: configuration).choose(name: self.voice, language: language, overrides: overrides)
        if language != nil, choice.reason != .named {
            // A book chose the voice: say which, and why, so a wrong language is easy to spot.
            storage.report("Speaking with \(choice.summary).")
        }
        var voice = choice.profile
        voice.lexicons = try pronunciation.lexicons() + voice.lexicons
        let cache = try makeAudioCache(configuration: configuration, logger: logger)
        return Speech(voice: voice, cache: cache, repository: makeTTSRepository(configuration: configuration, cache: cache, logger: logger))
    }
}

/// The voice and the speech path of one command.
struct Speech {
    var voice: VoiceProfile
    var cache: (any AudioCacheContract)?
    var repository: any TTSRepositoryContract
}

/// The user's own pronunciations.
struct PronunciationOptions: ParsableArguments {
    @Option(name: .customLong("lexicon"), help: ArgumentHelp("A PLS pronunciation lexicon (IPA or X-SAMPA) to apply; repeat for more. Yours win over the voice preset's and the book's.", valueName: "file.pls"))
    var paths: [String] = []

    /// The lexicons, read and checked.
    func lexicons() throws(PronunciationError) -> [PronunciationLexicon] {
        try loadLexicons(paths: paths)
    }
}

/// Where files live, and how much to say about it.
struct StorageOptions: ParsableArguments {
    @Option(name: .customLong("cache-dir"), help: "The audio cache folder (default: $NARRATE_CACHE_DIR, else $XDG_CACHE_HOME/narrate, else ~/.cache/narrate).")
    var cacheDir: String?

    @Option(name: .customLong("library"), help: "The book library database (default: $NARRATE_LIBRARY, else $XDG_DATA_HOME/narrate/library.sqlite).")
    var libraryPath: String?

    @Flag(name: .long, help: "Log cache hits and misses and other details on standard error.")
    var verbose = false

    @Flag(name: [.short, .long], help: "Print nothing but errors.")
    var quiet = false

    func configuration() -> NarrateConfiguration {
        var configuration = NarrateConfiguration.standard()
        if let cacheDir { configuration.cacheDirectory = cacheDir }
        if let libraryPath { configuration.libraryPath = libraryPath }
        return configuration
    }

    func makeLogger() -> Logger {
        var logger = Logger(label: "narrate", factory: { StreamLogHandler.standardError(label: $0) })
        logger.logLevel = verbose ? .debug : (quiet ? .error : .warning)
        return logger
    }

    /// A progress or summary line on standard error, unless `--quiet`.
    func report(_ line: String) {
        guard !quiet else { return }
        FileHandle.standardError.write(Data((line.escapingControlCharacters + "\n").utf8))
    }
}

/// How books without printed page numbers are cut into pages.
struct PagingOptions: ParsableArguments {
    @Option(name: .customLong("words-per-page"), help: "Words per page for books without printed page numbers (applies when a book is first added).")
    var wordsPerPage: Int = 300

    func validate() throws {
        guard (50...5000).contains(wordsPerPage) else { throw ValidationError("--words-per-page must be from 50 to 5000.") }
    }
}

/// Whether to read what is not the book.
struct MatterOptions: ParsableArguments {
    @Flag(name: .customLong("include-matter"), help: "Read everything in the file: Project Gutenberg header and licence, printed contents lists, notes, imprint, colophon, index ('narrate toc' lists what is otherwise skipped).")
    var includeMatter = false
}
