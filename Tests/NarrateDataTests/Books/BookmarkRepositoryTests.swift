import Foundation
import GRDB
@testable import NarrateData
import NarrateDomain
import Testing

@Suite struct BookmarkRepositoryTests {
    let dbQueue: DatabaseQueue
    let books: BookRepository
    let sut: BookmarkRepository

    init() throws {
        dbQueue = try DatabaseQueue()
        let database = try LibraryDatabase(dbQueue)
        books = BookRepository(database: database, clock: { Date(timeIntervalSince1970: 1_700_000_000) })
        sut = BookmarkRepository(database: database)
    }

    static let created = Date(timeIntervalSince1970: 1_750_000_000.25)

    @Test("Bookmarks read back in reading order, each with its place, note and time, only the book's own")
    func addThenList() async throws {
        // Given two books
        let moby = try await books.saveBook(.stub(), contentHash: "1", sourcePath: "moby.epub")
        let emma = try await books.saveBook(.stub(title: "Emma"), contentHash: "2", sourcePath: "emma.epub")

        // When bookmarks are added out of order
        let late = try await sut.addBookmark(bookID: moby.id, pageIndex: 3, textOffset: 0, note: nil, createdAt: Self.created)
        let lower = try await sut.addBookmark(bookID: moby.id, pageIndex: 1, textOffset: 20, note: "the whale", createdAt: Self.created)
        let top = try await sut.addBookmark(bookID: moby.id, pageIndex: 1, textOffset: 0, note: nil, createdAt: Self.created)
        _ = try await sut.addBookmark(bookID: emma.id, pageIndex: 1, textOffset: 0, note: nil, createdAt: Self.created)
        let listed = try await sut.getBookmarks(bookID: moby.id)

        // Then
        #expect(listed == [top, lower, late])
        #expect(lower == Bookmark(id: lower.id, bookID: moby.id, pageIndex: 1, textOffset: 20, note: "the whale", createdAt: Self.created))
        #expect(Set([late.id, lower.id, top.id]).count == 3)
    }

    @Test("A bookmark of a book not in the library throws bookNotFound")
    func unknownBook() async throws {
        await #expect(throws: BookError.bookNotFound(reference: "42")) {
            _ = try await sut.addBookmark(bookID: BookID(rawValue: 42), pageIndex: 1, textOffset: 0, note: nil, createdAt: Self.created)
        }
    }

    @Test("Removing gives the bookmark removed; another book's, or one already gone, gives nil")
    func remove() async throws {
        // Given
        let moby = try await books.saveBook(.stub(), contentHash: "1", sourcePath: "moby.epub")
        let emma = try await books.saveBook(.stub(title: "Emma"), contentHash: "2", sourcePath: "emma.epub")
        let bookmark = try await sut.addBookmark(bookID: moby.id, pageIndex: 2, textOffset: 5, note: "x", createdAt: Self.created)

        // When / Then
        #expect(try await sut.removeBookmark(id: bookmark.id, bookID: emma.id) == nil)
        #expect(try await sut.removeBookmark(id: bookmark.id, bookID: moby.id) == bookmark)
        #expect(try await sut.removeBookmark(id: bookmark.id, bookID: moby.id) == nil)
        #expect(try await sut.getBookmarks(bookID: moby.id).isEmpty)
    }

    @Test("A book's bookmarks go with it, and stay when the book is read again by newer parsers")
    func lifeOfTheBook() async throws {
        // Given
        let moby = try await books.saveBook(.stub(), contentHash: "1", sourcePath: "moby.epub")
        let bookmark = try await sut.addBookmark(bookID: moby.id, pageIndex: 2, textOffset: 0, note: nil, createdAt: Self.created)

        // When the book is updated, then removed
        try await books.updateBook(moby)
        let afterUpdate = try await sut.getBookmarks(bookID: moby.id)
        try await books.deleteBook(id: moby.id)

        // Then
        #expect(afterUpdate == [bookmark])
        #expect(try await sut.getBookmarks(bookID: moby.id).isEmpty)
        #expect(try await dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM bookmark") } == 0)
    }

    @Test("The bookmarks migration adds its table to a library of the last schema, keeping its books and progress")
    func migration() async throws {
        // Given a library as it was before bookmarks, with a book read to page 2
        let queue = try DatabaseQueue()
        try LibraryDatabase.makeMigrator().migrate(queue, upTo: "v2 chapter text offset")
        try await queue.write { db in
            try db.execute(sql: "INSERT INTO book (id, contentHash, sourcePath, format, title, dateAdded, progressPage) VALUES (1, 'h', 'a.txt', 'txt', 'Old', 0, 2)")
            #expect(try !db.tableExists("bookmark"))
        }

        // When it is opened
        let database = try LibraryDatabase(queue)
        let bookmarks = BookmarkRepository(database: database)
        let added = try await bookmarks.addBookmark(bookID: BookID(rawValue: 1), pageIndex: 2, textOffset: 3, note: "kept", createdAt: Self.created)

        // Then
        let migrations = try await queue.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") }
        #expect(migrations.last == "v3 bookmarks")
        #expect(try await bookmarks.getBookmarks(bookID: BookID(rawValue: 1)) == [added])
        #expect(try await queue.read { db in try Int.fetchOne(db, sql: "SELECT progressPage FROM book WHERE id = 1") } == 2)
    }
}
