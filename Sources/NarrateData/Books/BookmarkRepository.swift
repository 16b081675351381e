import Foundation
import GRDB
import NarrateDomain

/// The library's bookmarks, in the `bookmark` table of the library database.
///
/// Each operation is one read or one write transaction; every database error is mapped to
/// `BookError.libraryFailed`, a missing book to `BookError.bookNotFound`.
public struct BookmarkRepository: BookmarkRepositoryContract {
    private let writer: any DatabaseWriter

    /// - Parameter database: The migrated library database.
    public init(database: LibraryDatabase) {
        writer = database.writer
    }

    public func getBookmarks(bookID: BookID) async throws(BookError) -> [Bookmark] {
        do {
            return try await writer.read { db in
                try BookmarkRecord.fetchAll(
                    db, sql: "SELECT * FROM bookmark WHERE bookId = ? ORDER BY pageIndex, textOffset, createdAt, id",
                    arguments: [bookID.rawValue]
                ).map(Self.bookmark)
            }
        } catch {
            throw BookError.library(error, while: "listing the bookmarks of book \(bookID)")
        }
    }

    public func addBookmark(bookID: BookID, pageIndex: Int, textOffset: Int, note: String?, createdAt: Date) async throws(BookError) -> Bookmark {
        // Round-trip the date through its stored form, so the returned bookmark equals a re-read one.
        let record = BookmarkRecord(
            id: nil, bookId: bookID.rawValue, pageIndex: pageIndex, textOffset: textOffset, note: note,
            createdAt: BookMapper.databaseTime(createdAt))
        do {
            return try await writer.write { db in
                guard try BookRecord.exists(db, key: bookID.rawValue) else {
                    throw BookError.bookNotFound(reference: bookID.description)
                }
                var inserted = record
                try inserted.insert(db)
                return Self.bookmark(inserted)
            }
        } catch {
            throw BookError.library(error, while: "saving a bookmark of book \(bookID)")
        }
    }

    public func removeBookmark(id: BookmarkID, bookID: BookID) async throws(BookError) -> Bookmark? {
        do {
            return try await writer.write { db in
                guard let record = try BookmarkRecord.fetchOne(
                    db, sql: "SELECT * FROM bookmark WHERE id = ? AND bookId = ?", arguments: [id.rawValue, bookID.rawValue])
                else { return nil }
                _ = try BookmarkRecord.deleteOne(db, key: id.rawValue)
                return Self.bookmark(record)
            }
        } catch {
            throw BookError.library(error, while: "removing bookmark \(id) of book \(bookID)")
        }
    }

    private static func bookmark(_ record: BookmarkRecord) -> Bookmark {
        Bookmark(
            id: BookmarkID(rawValue: record.id ?? 0), bookID: BookID(rawValue: record.bookId), pageIndex: record.pageIndex,
            textOffset: record.textOffset, note: record.note, createdAt: BookMapper.date(record.createdAt))
    }
}
