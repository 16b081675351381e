import Foundation
import Glibc
import Synchronization

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

    /// The process that is writing a temporary file of this name, or `nil` for other names.
    public static func ownerProcess(of fileName: String) -> pid_t? {
        guard let range = fileName.range(of: marker) else { return nil }
        let rest = fileName[range.upperBound...]
        return rest.split(separator: "-").first.flatMap { pid_t(String($0)) }
    }
}

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
