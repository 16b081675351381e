/// What the cache store tier did: in this process (`TieredAudioCache.storeStatistics`), or
/// added up over the runs that used one local cache (`narrate cache stats`).
public struct CacheStoreStatistics: Sendable, Equatable, Codable {
    /// Local misses the store answered with a verified object.
    public var hits = 0
    /// Local misses the store did not have either.
    public var misses = 0
    /// Entries uploaded.
    public var uploads = 0
    /// Uploads the store already had (same key, same bytes).
    public var alreadyStored = 0
    /// Uploads skipped: the queue was full, or the store was down or refused them.
    public var skippedUploads = 0
    /// Requests that failed (unreachable, timed out, refused, failed).
    public var errors = 0
    /// Objects that failed verification and were not used.
    public var corrupt = 0
    /// Seconds spent on store requests that answered, for the average latency.
    public var requestSeconds = 0.0
    /// Requests that answered.
    public var requests = 0

    public init() {}

    /// The two added up.
    public static func + (lhs: Self, rhs: Self) -> Self {
        var sum = lhs
        sum.hits += rhs.hits
        sum.misses += rhs.misses
        sum.uploads += rhs.uploads
        sum.alreadyStored += rhs.alreadyStored
        sum.skippedUploads += rhs.skippedUploads
        sum.errors += rhs.errors
        sum.corrupt += rhs.corrupt
        sum.requestSeconds += rhs.requestSeconds
        sum.requests += rhs.requests
        return sum
    }

    /// Nothing counted.
    public var isEmpty: Bool { self == Self() }
}

/// One thing the store tier did, for metrics.
public enum CacheStoreEvent: Sendable, Equatable {
    /// A request answered after `seconds` (`operation`: get, head or put).
    case request(operation: String, seconds: Double)
    case hit
    case miss
    case uploaded
    case alreadyStored
    case uploadSkipped
    case error
    case corrupt
}
