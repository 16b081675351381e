/// Failures of the on-disk audio cache.
public enum CacheError: Error, Sendable, Equatable {
    case notWritable(path: String, reason: String)
    case indexFailed(path: String, reason: String)
    case writeFailed(path: String, reason: String)
}

extension CacheError: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .notWritable(path, reason):
            "The audio cache folder '\(path)' is not writable (\(reason)). Choose another with --cache-dir or NARRATE_CACHE_DIR, or use --no-cache."
        case let .indexFailed(path, reason):
            "The audio cache index '\(path)' could not be used (\(reason)). Run 'narrate cache clear' or choose another --cache-dir."
        case let .writeFailed(path, reason):
            "Could not store audio in the cache at '\(path)' (\(reason)). Check free space, or use --no-cache."
        }
    }
}
