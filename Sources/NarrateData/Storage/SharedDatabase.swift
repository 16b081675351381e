import Foundation
import GRDB

/// Opens a SQLite file that other processes may be opening at the same moment.
///
/// Switching a new file to WAL (`PRAGMA journal_mode = WAL`, which `DatabasePool` does on
/// open) needs an exclusive lock and SQLite does not call the busy handler for it, so two
/// processes creating the same database at once can get "database is locked". Opening is
/// retried for a while before the error is let through.
enum SharedDatabase {
    static func openPool(path: String, configuration: Configuration, attempts: Int = 50) throws -> DatabasePool {
        var attempt = 1
        while true {
            do {
                return try DatabasePool(path: path, configuration: configuration)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
                guard attempt < attempts else { throw error }
                attempt += 1
                usleep(UInt32(20_000 + Int.random(in: 0..<30_000)))
            }
        }
    }
}
