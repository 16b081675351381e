/// How a repository combines its cache with its source of truth.
public enum CachePolicy: Sendable, Hashable {
    /// Answer from the cache; on a miss, synthesize and store.
    case localFirst
    /// Synthesize anew and overwrite the cache; if synthesis fails, fall back to the cached entry.
    case remoteFirst
    /// Neither read nor write the cache.
    case noCache
}
