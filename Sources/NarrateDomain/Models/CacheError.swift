/// Failures of the on-disk audio cache.
public enum CacheError: Error, Sendable, Equatable {
    case notWritable(path: String, reason: String)
    case indexFailed(path: String, reason: String)
    case writeFailed(path: String, reason: String)
    /// The cache is turned off (no folder is configured), and what was asked needs it.
    case disabled
    /// The shared cache store (`--cache-store`) cannot be used as configured; `reason` says why.
    case storeUnusable(reason: String)
}

extension CacheError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .notWritable, .indexFailed, .writeFailed, .disabled, .storeUnusable:
            "\(problem). \(remedy)."
        }
    }
}

extension CacheError {
    /// What happened, without advice.
    public var problem: String {
        switch self {
        case let .notWritable(path, reason): "The audio cache folder '\(path)' is not writable (\(reason))"
        case let .indexFailed(path, reason): "The audio cache index '\(path)' could not be used (\(reason))"
        case let .writeFailed(path, reason): "Could not store audio in the cache at '\(path)' (\(reason))"
        case .disabled: "This needs the audio cache, which is turned off"
        case let .storeUnusable(reason): "The cache store cannot be used: \(reason)"
        }
    }

    /// What to do, in the terms of the library (front ends name their own options).
    public var remedy: String {
        switch self {
        case .notWritable: "Choose another cache folder, or turn the cache off"
        case .indexFailed: "Clear the cache, or choose another cache folder"
        case .writeFailed: "Free some space, or turn the cache off"
        case .disabled: "Configure a cache folder"
        case .storeUnusable: "Fix the store's settings, or leave the store out"
        }
    }
}
