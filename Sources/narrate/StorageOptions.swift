import ArgumentParser
import Foundation
import Logging
import NarrateKit

/// Where files live, and how much to say about it.
struct StorageOptions: ParsableArguments {
    @Option(name: .customLong("cache-dir"), help: "The audio cache folder (default: $NARRATE_CACHE_DIR, else $XDG_CACHE_HOME/narrate, else ~/.cache/narrate).")
    var cacheDir: String?

    @Option(name: .customLong("cache-store"), help: ArgumentHelp("A shared cache tier behind the cache folder: an S3-compatible bucket, s3://bucket/prefix (default: $NARRATE_CACHE_STORE). Endpoint, region and credentials as the AWS CLI finds them (AWS_ENDPOINT_URL_S3, AWS_REGION, AWS_ACCESS_KEY_ID, AWS_PROFILE, …).", valueName: "s3-url"))
    var cacheStore: String?

    @Option(name: .customLong("cache-store-mode"), help: "read-write (default: $NARRATE_CACHE_STORE_MODE, else read-write) or read-only, for credentials that can only read.")
    var cacheStoreMode: CacheStoreSettings.Mode?

    @Option(name: .customLong("cache-store-drain"), help: ArgumentHelp("Seconds pending uploads may take at exit (default: $NARRATE_CACHE_STORE_DRAIN, else 10).", valueName: "seconds"))
    var cacheStoreDrain: Double?

    @Option(name: .customLong("cache-store-timeout"), help: ArgumentHelp("Seconds one store request may take before the store is taken to be down for a while (default: $NARRATE_CACHE_STORE_TIMEOUT, else 10).", valueName: "seconds"))
    var cacheStoreTimeout: Double?

    @Option(name: .customLong("cache-store-addressing"), help: "path or virtual: how the bucket is named in requests (default: path for a store that is not AWS, virtual on AWS).")
    var cacheStoreAddressing: CacheStoreSettings.Addressing?

    @Option(name: .customLong("library"), help: "The book library database (default: $NARRATE_LIBRARY, else $XDG_DATA_HOME/narrate/library.sqlite).")
    var libraryPath: String?

    @Flag(name: [.short, .long], help: "Log cache hits and misses and other details on standard error.")
    var verbose = false

    @Flag(name: [.short, .long], help: "Print nothing but errors.")
    var quiet = false

    func validate() throws {
        if let cacheStoreDrain, !(0...3600).contains(cacheStoreDrain) { throw ValidationError("--cache-store-drain must be from 0 to 3600 seconds (got \(cacheStoreDrain)).") }
        if let cacheStoreTimeout, !(0.1...600).contains(cacheStoreTimeout) { throw ValidationError("--cache-store-timeout must be from 0.1 to 600 seconds (got \(cacheStoreTimeout)).") }
    }

    /// The configuration these options give, with what `options` set on top.
    func configuration(_ options: any ConfigurationOptions...) -> NarrateConfiguration {
        var configuration = NarrateConfiguration.standard()
        if let cacheDir { configuration.cacheDirectory = cacheDir }
        if let libraryPath { configuration.libraryPath = libraryPath }
        if let cacheStore { configuration.cacheStore = CacheStoreOptions(location: cacheStore) }
        if var store = configuration.cacheStore {
            if let cacheStoreMode { store.mode = cacheStoreMode }
            if let cacheStoreDrain { store.drainDeadline = .milliseconds(Int(cacheStoreDrain * 1000)) }
            if let cacheStoreTimeout { store.requestTimeout = .milliseconds(Int(cacheStoreTimeout * 1000)) }
            if let cacheStoreAddressing { store.addressing = cacheStoreAddressing }
            configuration.cacheStore = store
        }
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

extension CacheStoreSettings.Mode: ExpressibleByArgument {}
extension CacheStoreSettings.Addressing: ExpressibleByArgument {}
