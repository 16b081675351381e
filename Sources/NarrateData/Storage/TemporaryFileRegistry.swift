import Glibc
import Synchronization

/// The temporary files this process is writing, so a signal handler can remove them.
public enum TemporaryFileRegistry {
    private static let paths = Mutex<Set<String>>([])

    static func register(_ path: String) {
        paths.withLock { _ = $0.insert(path) }
    }

    static func unregister(_ path: String) {
        paths.withLock { _ = $0.remove(path) }
    }

    /// Removes every registered file (called on SIGINT/SIGTERM before the process exits).
    /// Never waits: a signal may arrive while this thread holds the lock.
    public static func removeAll() {
        paths.withLockIfAvailable { paths in
            for path in paths { unlink(path) }
            paths.removeAll()
        }
    }
}
