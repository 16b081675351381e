import ArgumentParser
import Foundation
import Logging
import NarrateKit

/// Where files live, and how much to say about it.
struct StorageOptions: ParsableArguments {
    @Option(name: .customLong("cache-dir"), help: "The audio cache folder (default: $NARRATE_CACHE_DIR, else $XDG_CACHE_HOME/narrate, else ~/.cache/narrate).")
    var cacheDir: String?

    @Option(name: .customLong("library"), help: "The book library database (default: $NARRATE_LIBRARY, else $XDG_DATA_HOME/narrate/library.sqlite).")
    var libraryPath: String?

    @Flag(name: [.short, .long], help: "Log cache hits and misses and other details on standard error.")
    var verbose = false

    @Flag(name: [.short, .long], help: "Print nothing but errors.")
    var quiet = false

    /// The configuration these options give, with what `options` set on top.
    func configuration(_ options: any ConfigurationOptions...) -> NarrateConfiguration {
        var configuration = NarrateConfiguration.standard()
        if let cacheDir { configuration.cacheDirectory = cacheDir }
        if let libraryPath { configuration.libraryPath = libraryPath }
        for option in options { option.apply(to: &configuration) }
        return configuration
    }

    func makeLogger() -> Logger {
        var logger = Logger(label: "narrate", factory: { StreamLogHandler.standardError(label: $0) })
        logger.logLevel = verbose ? .debug : (quiet ? .error : .warning)
        return logger
    }

    /// The service's logger: one line per request at `.info` (`--quiet`: warnings only).
    func makeServiceLogger() -> Logger {
        var logger = Logger(label: "narrate", factory: { StreamLogHandler.standardError(label: $0) })
        logger.logLevel = verbose ? .debug : (quiet ? .warning : .info)
        return logger
    }

    /// A progress or summary line on standard error, unless `--quiet`.
    func report(_ line: String) {
        Self.report(line, quiet: quiet)
    }

    /// Which voice speaks and why, unless the user named it.
    func report(_ choice: VoiceChoice) {
        Self.report(choice, quiet: quiet)
    }

    static func report(_ line: String, quiet: Bool) {
        guard !quiet else { return }
        FileHandle.standardError.write(Data((line.escapingControlCharacters + "\n").utf8))
    }

    static func report(_ choice: VoiceChoice, quiet: Bool) {
        guard choice.reason != .named else { return }
        report("Speaking with \(choice.summary).", quiet: quiet)
    }
}
