#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The store tier's statistics added up over every run that used one local cache folder
/// (`store-statistics.json` in it), for `narrate cache stats`. Runs that end at once take
/// turns through a lock file; a record that cannot be written is skipped (it is only counts).
public struct CacheStoreRecord: Sendable {
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    var path: String { directory + "/store-statistics.json" }

    /// The counts so far; empty when there are none.
    public func read() -> CacheStoreStatistics {
        guard let data = FileManager.default.contents(atPath: path),
              let statistics = try? JSONDecoder().decode(CacheStoreStatistics.self, from: data)
        else { return CacheStoreStatistics() }
        return statistics
    }

    /// Adds `statistics` to the record.
    func add(_ statistics: CacheStoreStatistics) {
        let lock = open(directory + "/store-statistics.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lock >= 0 else { return }
        defer { close(lock) }
        guard flock(lock, LOCK_EX) == 0 else { return }
        defer { flock(lock, LOCK_UN) }
        let sum = read() + statistics
        guard let data = try? JSONEncoder().encode(sum) else { return }
        try? AtomicFile.writeWhole(Array(data), to: path)
    }
}
