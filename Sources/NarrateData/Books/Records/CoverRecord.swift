import struct Foundation.Data
import GRDB

/// A row of the `cover` table: at most one image per book.
struct CoverRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "cover"

    var bookId: Int64
    var mediaType: String
    var data: Data
}
