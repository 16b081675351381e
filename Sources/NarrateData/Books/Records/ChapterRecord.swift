import GRDB

/// A row of the `chapter` table: one table-of-contents entry of a book.
struct ChapterRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "chapter"

    var bookId: Int64
    /// 0-based index into `Book.chapters`.
    var position: Int
    var title: String
    var depth: Int
    var firstPage: Int
    /// Scalar offset of the chapter's start in its first page's text (0 in rows stored before it was kept).
    var textOffset: Int
}
