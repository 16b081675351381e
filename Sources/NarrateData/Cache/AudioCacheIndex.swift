import Foundation
import GRDB
import Glibc
import NarrateDomain
import Synchronization

/// One row of the cache index: what the cache knows about an entry besides its bytes.
struct AudioCacheIndexRow: Sendable, Equatable {
    /// The key in hex, which is also the entry's file name.
    var key: String
    var size: Int64
    var duration: Double
    /// Seconds since 1970.
    var createdAt: Double
    /// Seconds since 1970.
    var lastUsedAt: Double
    var hits: Int
}

/// The SQLite index of the cache (`index.sqlite`, WAL), shared by every process that uses the
/// folder.
///
/// Stores and hits are not written one transaction each: they wait in memory and are written
/// together, in one transaction, once `batchSize` are pending or on `flush()`. Each pending
/// change is an upsert, so a hit on an entry another process has stored but not yet indexed
/// still creates the row.
final class AudioCacheIndex: Sendable {
    /// Pending changes that trigger a write.
    static let batchSize = 64

    let path: String
    private let pool: DatabasePool
    private let pending = Mutex<[String: PendingChange]>([:])

    /// What is waiting to be written for one key.
    private struct PendingChange: Sendable {
        var size: Int64
        var duration: Double
        /// Set when the entry was (re)stored: size, duration and creation time replace the row's.
        var storedAt: Double?
        var lastUsedAt: Double
        var hits: Int

        mutating func merge(_ other: PendingChange) {
            if other.storedAt != nil || storedAt == nil {
                size = other.size
                duration = other.duration
            }
            storedAt = other.storedAt ?? storedAt
            lastUsedAt = max(lastUsedAt, other.lastUsedAt)
            hits += other.hits
        }
    }

    /// Opens (creating if needed) and migrates the index at `path`. The index is derived data
    /// (the entry files are the truth): one SQLite finds damaged is moved aside to
    /// `<path>.damaged-<time>` and a new one is started, which `AudioCache`'s reconciling fills
    /// from the entry files; `onRebuilt` is told where the damaged one went.
    /// - Throws: `CacheError.indexFailed` when SQLite cannot open or migrate it for another
    ///   reason (a locked, unreadable or read-only file), or a new one fails too.
    init(path: String, onRebuilt: (_ damagedCopy: String, _ reason: String) -> Void = { _, _ in }) throws(CacheError) {
        self.path = path
        do {
            pool = try Self.openMigrated(path)
        } catch let error as DatabaseError where [.SQLITE_NOTADB, .SQLITE_CORRUPT].contains(error.resultCode.primaryResultCode) {
            let aside = "\(path).damaged-\(Int(Date().timeIntervalSince1970))"
            guard rename(path, aside) == 0 else { throw .indexFailed(path: path, reason: "\(error)") }
            unlink(path + "-wal")
            unlink(path + "-shm")
            do {
                pool = try Self.openMigrated(path)
            } catch {
                throw .indexFailed(path: path, reason: "\(error)")
            }
            onRebuilt(aside, error.message ?? "\(error.resultCode)")
        } catch {
            throw .indexFailed(path: path, reason: "\(error)")
        }
    }

    private static func openMigrated(_ path: String) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.label = "narrate.audio-cache.index"
        // Other processes may hold the write lock; wait for them rather than fail.
        configuration.busyMode = .timeout(30)
        let pool = try SharedDatabase.openPool(path: path, configuration: configuration)
        do {
            try migrator.migrate(pool)
        } catch {
            // Another process may have run the same migration between our check and our
            // write; a second pass sees it applied.
            try migrator.migrate(pool)
        }
        return pool
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("createEntry") { db in
            try db.create(table: "entry") { table in
                table.primaryKey("key", .text)
                table.column("size", .integer).notNull()
                table.column("duration", .double).notNull()
                table.column("createdAt", .double).notNull()
                table.column("lastUsedAt", .double).notNull()
                table.column("hits", .integer).notNull().defaults(to: 0)
            }
        }
        migrator.registerMigration("indexEntryByLastUse") { db in
            try db.create(index: "entry_on_lastUsedAt_createdAt", on: "entry", columns: ["lastUsedAt", "createdAt"])
        }
        return migrator
    }

    // MARK: - Pending changes

    /// Notes that an entry was stored at `date` (seconds since 1970).
    /// - Returns: whether enough changes are pending to flush.
    func recordStore(key: String, size: Int64, duration: Double, at date: Double) -> Bool {
        enqueue(key: key, PendingChange(size: size, duration: duration, storedAt: date, lastUsedAt: date, hits: 0))
    }

    /// Notes a hit on an entry at `date` (seconds since 1970).
    /// - Returns: whether enough changes are pending to flush.
    func recordHit(key: String, size: Int64, duration: Double, at date: Double) -> Bool {
        enqueue(key: key, PendingChange(size: size, duration: duration, storedAt: nil, lastUsedAt: date, hits: 1))
    }

    private func enqueue(key: String, _ change: PendingChange) -> Bool {
        pending.withLock { pending in
            pending[key, default: PendingChange(size: change.size, duration: change.duration, storedAt: nil, lastUsedAt: change.lastUsedAt, hits: 0)].merge(change)
            return pending.count >= Self.batchSize
        }
    }

    /// The number of keys with changes not yet written.
    var pendingCount: Int { pending.withLock { $0.count } }

    /// Writes every pending change in one transaction. On failure the changes stay pending.
    func flush() throws(CacheError) {
        let batch = pending.withLock { pending in
            let batch = pending
            pending.removeAll(keepingCapacity: true)
            return batch
        }
        guard !batch.isEmpty else { return }
        do {
            try write { db in
                for (key, change) in batch {
                    if let storedAt = change.storedAt {
                        try db.execute(
                            sql: """
                                INSERT INTO entry (key, size, duration, createdAt, lastUsedAt, hits) VALUES (?, ?, ?, ?, ?, ?)
                                ON CONFLICT(key) DO UPDATE SET size = excluded.size, duration = excluded.duration,
                                  createdAt = excluded.createdAt, lastUsedAt = max(lastUsedAt, excluded.lastUsedAt),
                                  hits = hits + excluded.hits
                                """,
                            arguments: [key, change.size, change.duration, storedAt, change.lastUsedAt, change.hits])
                    } else {
                        try db.execute(
                            sql: """
                                INSERT INTO entry (key, size, duration, createdAt, lastUsedAt, hits) VALUES (?, ?, ?, ?, ?, ?)
                                ON CONFLICT(key) DO UPDATE SET lastUsedAt = max(lastUsedAt, excluded.lastUsedAt),
                                  hits = hits + excluded.hits
                                """,
                            arguments: [key, change.size, change.duration, change.lastUsedAt, change.lastUsedAt, change.hits])
                    }
                }
            }
        } catch {
            pending.withLock { pending in
                for (key, change) in batch {
                    var merged = change
                    if let newer = pending[key] { merged.merge(newer) }
                    pending[key] = merged
                }
            }
            throw error
        }
    }

    // MARK: - Rows

    /// Every row, least recently used first (then oldest first).
    func rowsByLastUse() throws(CacheError) -> [AudioCacheIndexRow] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT key, size, duration, createdAt, lastUsedAt, hits FROM entry ORDER BY lastUsedAt, createdAt, key")
                .map { row in
                    AudioCacheIndexRow(
                        key: row["key"], size: row["size"], duration: row["duration"],
                        createdAt: row["createdAt"], lastUsedAt: row["lastUsedAt"], hits: row["hits"])
                }
        }
    }

    /// The keys of every row.
    func allKeys() throws(CacheError) -> Set<String> {
        try read { db in Set(try String.fetchAll(db, sql: "SELECT key FROM entry")) }
    }

    /// Adds `rows` whose key is not indexed yet; existing rows are left alone.
    func insertMissing(_ rows: [AudioCacheIndexRow]) throws(CacheError) {
        guard !rows.isEmpty else { return }
        try write { db in
            for row in rows {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO entry (key, size, duration, createdAt, lastUsedAt, hits) VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [row.key, row.size, row.duration, row.createdAt, row.lastUsedAt, row.hits])
            }
        }
    }

    /// Deletes the rows of `keys` and forgets their pending changes.
    func delete(keys: [String]) throws(CacheError) {
        guard !keys.isEmpty else { return }
        pending.withLock { pending in
            for key in keys { pending[key] = nil }
        }
        try write { db in
            for key in keys {
                try db.execute(sql: "DELETE FROM entry WHERE key = ?", arguments: [key])
            }
        }
    }

    /// Deletes every row and forgets every pending change.
    func deleteAll() throws(CacheError) {
        pending.withLock { $0.removeAll() }
        try write { db in try db.execute(sql: "DELETE FROM entry") }
    }

    /// Totals over the rows (pending changes are not counted: flush first).
    func statistics() throws(CacheError) -> CacheStatistics {
        try read { db in
            let row = try Row.fetchOne(
                db, sql: "SELECT COUNT(*), COALESCE(SUM(size), 0), COALESCE(SUM(duration), 0.0), COALESCE(SUM(hits), 0) FROM entry")
            return CacheStatistics(
                entryCount: row?[0] ?? 0, totalBytes: row?[1] ?? 0, totalDuration: row?[2] ?? 0, totalHits: row?[3] ?? 0)
        }
    }

    // MARK: - Access

    /// Runs `updates` in one IMMEDIATE transaction: the write lock is taken up front, so a busy
    /// database makes us wait (busy timeout) instead of failing on a lock upgrade.
    private func write(_ updates: (Database) throws -> Void) throws(CacheError) {
        do {
            try pool.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    try updates(db)
                    return .commit
                }
            }
        } catch {
            throw .indexFailed(path: path, reason: "\(error)")
        }
    }

    private func read<T>(_ value: (Database) throws -> T) throws(CacheError) -> T {
        do {
            return try pool.read(value)
        } catch {
            throw .indexFailed(path: path, reason: "\(error)")
        }
    }
}
