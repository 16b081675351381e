import NarrateData

/// The shared cache tier a configuration asks for (`--cache-store s3://bucket/prefix`); the
/// endpoint, region and credentials are found when the cache opens, as the AWS tools find them.
public struct CacheStoreOptions: Sendable, Equatable {
    /// `s3://bucket/prefix`.
    public var location: String
    public var mode: CacheStoreSettings.Mode = .readWrite
    /// How long pending uploads may take at exit (`--cache-store-drain`).
    public var drainDeadline: Duration = .seconds(10)
    /// `nil`: path-style for an endpoint that is not AWS's, virtual-host on AWS.
    public var addressing: CacheStoreSettings.Addressing?
    /// How long one request may take (connecting: at most 2 s of it).
    public var requestTimeout: Duration = .seconds(10)

    public init(location: String) {
        self.location = location
    }

    /// The options `environment` gives: `NARRATE_CACHE_STORE`, `NARRATE_CACHE_STORE_MODE`,
    /// `NARRATE_CACHE_STORE_DRAIN` and `NARRATE_CACHE_STORE_TIMEOUT` (seconds); `nil` without
    /// a store. Values that do not parse are left at their defaults (the flags check theirs).
    public static func from(environment: [String: String]) -> CacheStoreOptions? {
        guard let location = environment["NARRATE_CACHE_STORE"], !location.isEmpty else { return nil }
        var options = CacheStoreOptions(location: location)
        if let mode = environment["NARRATE_CACHE_STORE_MODE"].flatMap(CacheStoreSettings.Mode.init(rawValue:)) { options.mode = mode }
        if let seconds = environment["NARRATE_CACHE_STORE_DRAIN"].flatMap(Double.init), seconds >= 0 { options.drainDeadline = .milliseconds(Int(seconds * 1000)) }
        if let seconds = environment["NARRATE_CACHE_STORE_TIMEOUT"].flatMap(Double.init), seconds > 0 { options.requestTimeout = .milliseconds(Int(seconds * 1000)) }
        if let addressing = environment["NARRATE_CACHE_STORE_ADDRESSING"].flatMap(CacheStoreSettings.Addressing.init(rawValue:)) { options.addressing = addressing }
        return options
    }

    /// The settings, with the endpoint, region and credentials `environment` and the AWS
    /// files give.
    /// - Throws: `CacheError.storeUnusable` with the line that says what to fix.
    func settings(environment: [String: String]) throws(CacheError) -> CacheStoreSettings {
        var settings: CacheStoreSettings
        do {
            settings = try CacheStoreSettings.resolve(location: location, addressing: addressing, environment: environment)
        } catch {
            throw .storeUnusable(reason: error.description)
        }
        settings.mode = mode
        settings.drainDeadline = drainDeadline
        settings.requestTimeout = requestTimeout
        settings.connectTimeout = min(.seconds(2), requestTimeout)
        return settings
    }
}
