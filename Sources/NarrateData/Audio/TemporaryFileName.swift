import Glibc

/// Names for files being written: hidden, beside their destination (so `rename` is atomic),
/// and unique per process.
public enum TemporaryFileName {
    static let marker = ".narrate-tmp-"

    /// `dir/.name.narrate-tmp-<pid>-<random>` for a destination `dir/name`.
    public static func beside(_ path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return "\(folder).\(name)\(marker)\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }
}

/// The temporary files this process is writing, so a signal handler can remove them.
public enum TemporaryFileRegistry {
    private nonisolated(unsafe) static var paths: Set<String> = []
    private static let lock: UnsafeMutablePointer<pthread_mutex_t> = {
        let pointer = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(pointer, nil)
        return pointer
    }()

    static func register(_ path: String) {
        pthread_mutex_lock(lock); defer { pthread_mutex_unlock(lock) }
        paths.insert(path)
    }

    static func unregister(_ path: String) {
        pthread_mutex_lock(lock); defer { pthread_mutex_unlock(lock) }
        paths.remove(path)
    }

    /// Removes every registered file (called on SIGINT/SIGTERM before the process exits).
    public static func removeAll() {
        pthread_mutex_lock(lock); defer { pthread_mutex_unlock(lock) }
        for path in paths { unlink(path) }
        paths.removeAll()
    }
}
