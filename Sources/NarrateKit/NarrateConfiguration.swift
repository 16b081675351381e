import Foundation
import NarrateData
import NarrateDomain

/// Where Narrate keeps its files and how it narrates; every field has a default that needs no set-up.
public struct NarrateConfiguration: Sendable {
    /// The audio cache folder; `nil` turns the cache off.
    public var cacheDirectory: String?
    /// Folders searched for voice presets (`*.json`), earlier first.
    public var voiceDirectories: [String]
    /// The book library's SQLite database.
    public var libraryPath: String
    /// Target words per page for books without print pages.
    public var wordsPerPage: Int
    /// The `narrate-worker` program that synthesizes; `nil`: `$NARRATE_WORKER`, else beside the
    /// running program, else on `PATH`.
    public var workerExecutable: String?
    /// How many texts are synthesized at once when speaking (worker processes).
    public var engineWorkers: Int
    /// The fixed part of one text's synthesis deadline (each character adds 10 ms); past it
    /// the worker's child is killed and the text reported.
    public var engineTimeout: Duration
    /// Whether books are read with what is not the book — Project Gutenberg boilerplate, printed
    /// contents lists, notes, imprints, colophons, indexes — which is otherwise left out.
    public var includesMatter = false
    /// The remote speech API to speak through instead of eSpeak NG (`--remote`); `nil`: eSpeak NG.
    public var remote: RemoteSpeechEngine?
    /// Whether text the remote API cannot deliver after its retries is spoken by eSpeak NG
    /// (`--fallback espeak`).
    public var fallsBackToESpeak = false
    /// The shared cache tier behind the cache folder (`--cache-store`, `NARRATE_CACHE_STORE`);
    /// `nil`: the folder alone.
    public var cacheStore: CacheStoreOptions?
    /// The user password of encrypted PDFs (`--password`, `NARRATE_PDF_PASSWORD`): handed to the
    /// PDF reader on a descriptor, never stored in the library.
    public var pdfPassword: String?
    /// The `narrate-pdf` program; `nil`: `$NARRATE_PDF_READER`, else beside the running program,
    /// else on `PATH`.
    public var pdfReaderExecutable: String?

    public init(
        cacheDirectory: String?, voiceDirectories: [String], libraryPath: String, wordsPerPage: Int = 300,
        workerExecutable: String? = nil, engineWorkers: Int = ProcessInfo.processInfo.activeProcessorCount, engineTimeout: Duration = .seconds(10)
    ) {
        self.cacheDirectory = cacheDirectory
        self.voiceDirectories = voiceDirectories
        self.libraryPath = libraryPath
        self.wordsPerPage = wordsPerPage
        self.workerExecutable = workerExecutable
        self.engineWorkers = max(1, engineWorkers)
        self.engineTimeout = engineTimeout
    }

    /// The engine's limits this configuration sets.
    var engineLimits: EngineWorkerSynthesizer.Limits {
        EngineWorkerSynthesizer.Limits(deadlineBase: engineTimeout)
    }

    /// The defaults for `environment`: cache in `$NARRATE_CACHE_DIR`, else
    /// `$XDG_CACHE_HOME/narrate`, else `~/.cache/narrate`; presets from `$NARRATE_VOICES_DIR`,
    /// the `voices/` folder of a source checkout the binary was built in, and
    /// `$XDG_DATA_HOME/narrate/voices`, then `/usr/local/share/narrate/voices` (presets and
    /// Piper voices alike); the library in `$NARRATE_LIBRARY`, else
    /// `$XDG_DATA_HOME/narrate/library.sqlite`, else `~/.local/share/narrate/library.sqlite`;
    /// the synthesis deadline's fixed part from `$NARRATE_ENGINE_TIMEOUT` (seconds), else 10 s;
    /// the shared cache store from `$NARRATE_CACHE_STORE` (see `CacheStoreOptions`); encrypted PDFs'
    /// password from `$NARRATE_PDF_PASSWORD`.
    public static func standard(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executablePath: String = CommandLine.arguments.first ?? ""
    ) -> NarrateConfiguration {
        var configuration = NarrateConfiguration(
            cacheDirectory: defaultCacheDirectory(environment: environment),
            voiceDirectories: defaultVoiceDirectories(environment: environment, executablePath: executablePath),
            libraryPath: defaultLibraryPath(environment: environment),
            engineTimeout: environment["NARRATE_ENGINE_TIMEOUT"].flatMap(Double.init).flatMap { $0 > 0 ? Duration.milliseconds(Int($0 * 1000)) : nil } ?? .seconds(10)
        )
        configuration.cacheStore = CacheStoreOptions.from(environment: environment)
        configuration.pdfPassword = environment["NARRATE_PDF_PASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
        return configuration
    }

    public static func defaultCacheDirectory(environment: [String: String]) -> String {
        if let explicit = environment["NARRATE_CACHE_DIR"], !explicit.isEmpty { return explicit }
        if let xdg = environment["XDG_CACHE_HOME"], !xdg.isEmpty { return xdg + "/narrate" }
        return home(environment) + "/.cache/narrate"
    }

    public static func defaultLibraryPath(environment: [String: String]) -> String {
        if let explicit = environment["NARRATE_LIBRARY"], !explicit.isEmpty { return explicit }
        return defaultDataDirectory(environment: environment) + "/library.sqlite"
    }

    public static func defaultDataDirectory(environment: [String: String]) -> String {
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty { return xdg + "/narrate" }
        return home(environment) + "/.local/share/narrate"
    }

    static func defaultVoiceDirectories(environment: [String: String], executablePath: String) -> [String] {
        var directories: [String] = []
        if let explicit = environment["NARRATE_VOICES_DIR"], !explicit.isEmpty { directories.append(explicit) }
        // A binary built in a checkout sits at <checkout>/.build/<triple>/<configuration>/narrate.
        let executable = URL(fileURLWithPath: executablePath).resolvingSymlinksInPath()
        var folder = executable.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("voices").path
            if FileManager.default.fileExists(atPath: candidate + "/README.md") {
                directories.append(candidate)
                break
            }
            folder = folder.deletingLastPathComponent()
        }
        directories.append(defaultDataDirectory(environment: environment) + "/voices")
        // Where a system-wide install puts voices (Piper voices among them).
        directories.append("/usr/local/share/narrate/voices")
        return directories
    }

    private static func home(_ environment: [String: String]) -> String {
        environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    }
}
