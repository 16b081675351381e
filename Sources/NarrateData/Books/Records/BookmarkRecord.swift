import GRDB

/// A row of the `bookmark` table, column for column. Dates are seconds since 1970.
struct BookmarkRecord: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "bookmark"

    var id: Int64?
    var bookId: Int64
    var pageIndex: Int
    var textOffset: Int
    var note: String?
    var createdAt: Double

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
