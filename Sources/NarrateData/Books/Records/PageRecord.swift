import GRDB

/// A row of the `page` table. Its `id` is also the rowid of the page's row in `pageSearch`.
struct PageRecord: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "page"

    var id: Int64?
    var bookId: Int64
    /// `Page.index`, 1-based.
    var position: Int
    var label: String
    var chapterIndex: Int?
    var text: String

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
