import GRDB

/// A row of the `book` table, column for column. Dates are seconds since 1970.
struct BookRecord: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "book"

    var id: Int64?
    var contentHash: String
    var sourcePath: String
    var format: String
    var title: String
    /// JSON array of strings.
    var authors: String
    var language: String?
    var identifier: String?
    var publisher: String?
    var date: String?
    var bookDescription: String?
    var dateAdded: Double
    var progressPage: Int?
    var progressUpdatedAt: Double?
    var credits: String?
    /// JSON array of `SkippedMatter`.
    var skippedMatter: String
    var parserVersion: Int
    /// JSON array of the book's pronunciation lexicons; NULL for books stored before.
    var lexicons: String?

    enum CodingKeys: String, CodingKey {
        case id, contentHash, sourcePath, format, title, authors, language, identifier, publisher, date
        case bookDescription = "description"
        case dateAdded, progressPage, progressUpdatedAt, credits, skippedMatter, parserVersion, lexicons
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
