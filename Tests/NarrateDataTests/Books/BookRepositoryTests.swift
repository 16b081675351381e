import Foundation
import GRDB
@testable import NarrateData
import NarrateDomain
import Testing

@Suite struct BookRepositoryTests {
    let dbQueue: DatabaseQueue
    let clock: SteppingClock
    let sut: BookRepository

    init() throws {
        dbQueue = try DatabaseQueue()
        clock = SteppingClock()
        let clock = clock
        sut = BookRepository(database: try LibraryDatabase(dbQueue), clock: { clock.now() })
    }

    // MARK: - Save and read

    @Test("a saved book reads back equal: metadata, chapters, pages and cover")
    func saveThenGet() async throws {
        // Given
        let book = Book.stub()

        // When
        let saved = try await sut.saveBook(book, contentHash: "hash-1", sourcePath: "/books/moby.epub")
        let fetched = try await sut.getBook(id: saved.id)

        // Then
        #expect(saved.book == book)
        #expect(saved.contentHash == "hash-1")
        #expect(saved.sourcePath == "/books/moby.epub")
        #expect(saved.dateAdded == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(saved.progress == nil)
        #expect(fetched == saved)
    }

    @Test("a book's pronunciation lexicons are stored with it; a book stored before lexicons reads back with none")
    func lexiconsRoundTrip() async throws {
        // Given
        var book = Book.stub()
        book.lexicons = [PronunciationLexicon(name: "OEBPS/terms.pls", language: "en", digest: "abc", entries: [
            PronunciationEntry(graphemes: ["GIF", "gif"], phonemes: "dʒɪf", alphabet: "ipa"),
        ])]

        // When
        let saved = try await sut.saveBook(book, contentHash: "hash-lex", sourcePath: "/books/terms.epub")
        let fetched = try await sut.getBook(id: saved.id)
        try await dbQueue.write { db in try db.execute(sql: "UPDATE book SET lexicons = NULL") }
        let old = try await sut.getBook(id: saved.id)

        // Then
        #expect(fetched?.book.lexicons == book.lexicons)
        #expect(old?.book.lexicons == [])
        #expect(old?.book.pages == book.pages)
    }

    @Test("a book without cover, authors or chapters reads back equal")
    func saveMinimalBook() async throws {
        // Given
        let book = Book(metadata: BookMetadata(title: "Notes"), format: .plainText, pages: [Page(index: 1, label: "1", text: "Hello.")])

        // When
        let saved = try await sut.saveBook(book, contentHash: "h", sourcePath: "notes.txt")

        // Then
        #expect(try await sut.getBook(id: saved.id)?.book == book)
        #expect(try await sut.getCover(bookID: saved.id) == nil)
    }

    @Test("an unknown id or content hash finds nothing")
    func getUnknown() async throws {
        // Given
        _ = try await sut.saveBook(.stub(), contentHash: "hash-1", sourcePath: "a.epub")

        // When / Then
        #expect(try await sut.getBook(id: BookID(rawValue: 42)) == nil)
        #expect(try await sut.getBook(contentHash: "other") == nil)
    }

    @Test("all books come newest first, then by id when added at the same moment")
    func getAllNewestFirst() async throws {
        // Given
        let first = try await sut.saveBook(.stub(title: "First"), contentHash: "1", sourcePath: "1.epub")
        let second = try await sut.saveBook(.stub(title: "Second"), contentHash: "2", sourcePath: "2.epub")
        let pinned = BookRepository(
            database: try LibraryDatabase(dbQueue), clock: { Date(timeIntervalSince1970: 1_600_000_000) })
        let oldA = try await pinned.saveBook(.stub(title: "Old A"), contentHash: "3", sourcePath: "3.epub")
        let oldB = try await pinned.saveBook(.stub(title: "Old B"), contentHash: "4", sourcePath: "4.epub")

        // When
        let books = try await sut.getAllBooks()

        // Then
        #expect(books.map(\.id) == [second.id, first.id, oldB.id, oldA.id])
        #expect(books.first == second)
    }

    @Test("the same file imported again is found by its content hash")
    func getByContentHash() async throws {
        // Given
        let saved = try await sut.saveBook(.stub(), contentHash: "abc123", sourcePath: "moby.epub")

        // When
        let duplicate = try await sut.getBook(contentHash: "abc123")

        // Then
        #expect(duplicate == saved)
    }

    @Test("saving a second book with the same content hash fails as a library error")
    func saveDuplicateHash() async throws {
        // Given
        _ = try await sut.saveBook(.stub(), contentHash: "abc123", sourcePath: "moby.epub")

        // When / Then
        let error = await #expect(throws: BookError.self) {
            try await sut.saveBook(.stub(), contentHash: "abc123", sourcePath: "copy.epub")
        }
        guard case let .libraryFailed(reason) = error else {
            Issue.record("expected libraryFailed, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("copy.epub"))
        #expect(try await sut.getAllBooks().count == 1)
    }

    @Test("the cover is read on its own")
    func getCover() async throws {
        // Given
        let saved = try await sut.saveBook(.stub(cover: .stub(mediaType: "image/jpeg", byteCount: 300)), contentHash: "h", sourcePath: "a.epub")

        // When
        let cover = try await sut.getCover(bookID: saved.id)

        // Then
        #expect(cover == .stub(mediaType: "image/jpeg", byteCount: 300))
    }

    // MARK: - Update

    @Test("an update replaces metadata, chapters, pages and cover, and search follows")
    func updateReplacesContents() async throws {
        // Given
        var saved = try await sut.saveBook(.stub(), contentHash: "h", sourcePath: "a.epub")
        try await sut.updateProgress(bookID: saved.id, progress: ReadingProgress(pageIndex: 2, updatedAt: Date(timeIntervalSince1970: 1_700_000_500)))
        saved.book = .stub(title: "The Whale", pages: ["A squid of great size.", "Ambergris and spermaceti."], cover: nil)

        // When
        try await sut.updateBook(saved)

        // Then
        let fetched = try #require(try await sut.getBook(id: saved.id))
        #expect(fetched.book == saved.book)
        #expect(fetched.dateAdded == saved.dateAdded)
        #expect(fetched.progress == ReadingProgress(pageIndex: 2, updatedAt: Date(timeIntervalSince1970: 1_700_000_500)))
        #expect(try await sut.getCover(bookID: saved.id) == nil)
        #expect(try await sut.searchBooks(query: "Ishmael").isEmpty)
        #expect(try await sut.searchBooks(query: "moby").isEmpty)
        #expect(try await sut.searchBooks(query: "ambergris").map(\.pageIndex) == [2])
        #expect(try await sut.searchBooks(query: "whale").map(\.title) == ["The Whale"])
        #expect(try rowCount("page", of: saved.id) == 2)
        #expect(try rowCount("pageSearch", of: saved.id) == 3)
    }

    @Test("updating a book that is not in the library throws bookNotFound")
    func updateMissing() async throws {
        // Given
        let ghost = LibraryBook(id: BookID(rawValue: 42), book: .stub(), contentHash: "h", sourcePath: "a.epub", dateAdded: Date())

        // When / Then
        await #expect(throws: BookError.bookNotFound(reference: "42")) {
            try await sut.updateBook(ghost)
        }
    }

    // MARK: - Delete

    @Test("deleting a book removes its chapters, pages, cover and search rows, and nothing else")
    func deleteCascades() async throws {
        // Given
        let doomed = try await sut.saveBook(.stub(), contentHash: "1", sourcePath: "a.epub")
        let kept = try await sut.saveBook(.stub(title: "Kept"), contentHash: "2", sourcePath: "b.epub")

        // When
        try await sut.deleteBook(id: doomed.id)

        // Then
        for table in ["chapter", "page", "cover", "pageSearch"] {
            #expect(try rowCount(table, of: doomed.id) == 0, "\(table)")
        }
        #expect(try rowCount("page", of: kept.id) == 3)
        #expect(try rowCount("pageSearch", of: kept.id) == 4)
        #expect(try await sut.getBook(id: doomed.id) == nil)
        #expect(try await sut.getAllBooks() == [kept])
        #expect(try await sut.searchBooks(query: "Ishmael").map(\.bookID) == [kept.id])
    }

    @Test("deleting a book twice throws bookNotFound the second time")
    func deleteTwice() async throws {
        // Given
        let saved = try await sut.saveBook(.stub(), contentHash: "1", sourcePath: "a.epub")
        try await sut.deleteBook(id: saved.id)

        // When / Then
        await #expect(throws: BookError.bookNotFound(reference: saved.id.description)) {
            try await sut.deleteBook(id: saved.id)
        }
        await #expect(throws: BookError.bookNotFound(reference: "42")) {
            try await sut.deleteBook(id: BookID(rawValue: 42))
        }
    }

    // MARK: - Progress

    @Test("reading progress is saved and read back")
    func progressRoundTrip() async throws {
        // Given
        let saved = try await sut.saveBook(.stub(), contentHash: "1", sourcePath: "a.epub")
        let progress = ReadingProgress(pageIndex: 3, updatedAt: Date(timeIntervalSince1970: 1_700_001_000))

        // When
        try await sut.updateProgress(bookID: saved.id, progress: progress)

        // Then
        #expect(try await sut.getBook(id: saved.id)?.progress == progress)
        #expect(try await sut.getAllBooks().first?.progress == progress)
    }

    @Test("saving progress of a book that is not in the library throws bookNotFound")
    func progressMissing() async throws {
        await #expect(throws: BookError.bookNotFound(reference: "42")) {
            try await sut.updateProgress(bookID: BookID(rawValue: 42), progress: ReadingProgress(pageIndex: 1, updatedAt: Date()))
        }
    }

    // MARK: - Helpers

    func rowCount(_ table: String, of id: BookID) throws -> Int {
        try dbQueue.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table) WHERE bookId = ?", arguments: [id.rawValue]) ?? 0
        }
    }
}
