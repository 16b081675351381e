import Foundation
import Glibc
import Synchronization

/// Names for files being written: hidden, beside their destination (so `rename` is atomic),
/// unique per process, and naming the process that writes them, so that what a killed process
/// left behind can be told from what a running one is writing.
public enum TemporaryFileName {
    static let marker = ".narrate-tmp-"

    /// `dir/.name.narrate-tmp-<pid>-<start>-<random>` for a destination `dir/name`, where
    /// `<start>` is when this process started (against PID reuse).
    public static func beside(_ path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let owner = ProcessIdentity.current
        return "\(folder).\(name)\(marker)\(owner.pid)-\(owner.startTicks)-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// The process writing a temporary file of this name, or `nil` for other names. Names of
    /// earlier versions carry no start time (`<pid>-<random>`): then only the PID is checked.
    static func owner(of fileName: String) -> ProcessIdentity? {
        guard let range = fileName.range(of: marker) else { return nil }
        let parts = fileName[range.upperBound...].split(separator: "-")
        guard let pid = parts.first.flatMap({ pid_t(String($0)) }) else { return nil }
        let start = parts.count >= 3 ? UInt64(String(parts[1])) ?? 0 : 0
        return ProcessIdentity(pid: pid, startTicks: start)
    }

    /// Whether `fileName` is a temporary file whose writer is gone (killed before it could
    /// remove it).
    public static func isAbandoned(_ fileName: String) -> Bool {
        guard let owner = owner(of: fileName) else { return false }
        return !owner.isRunning
    }

    /// Removes the abandoned temporary files in `folder`; returns how many.
    @discardableResult
    public static func removeAbandoned(in folder: String) -> Int {
        guard let directory = opendir(folder.isEmpty ? "." : folder) else { return 0 }
        defer { closedir(directory) }
        var removed = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.contains(marker), isAbandoned(name) else { continue }
            if unlink((folder.isEmpty ? "" : folder + "/") + name) == 0 { removed += 1 }
        }
        return removed
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
