import Foundation
import GRDB
@testable import NarrateData
import NarrateDomain
import Testing

extension BookRepositoryTests {
    // MARK: - Database

    @Test("getBookTitles lists ids and titles newest first, without reading pages")
    func titles() async throws {
        // Given
        let first = try await sut.saveBook(.stub(title: "Emma"), contentHash: "1", sourcePath: "emma.epub")
        let second = try await sut.saveBook(.stub(title: "Moby-Dick"), contentHash: "2", sourcePath: "moby.epub")

        // When
        let titles = try await sut.getBookTitles()

        // Then
        #expect(Set(titles) == [BookTitle(id: first.id, title: "Emma"), BookTitle(id: second.id, title: "Moby-Dick")])
    }

    @Test("skipped matter, credits and the parser generation are stored and read back")
    func skippedMatterRoundTrip() async throws {
        // Given
        var book = Book.stub()
        book.metadata.credits = "Produced by Jeroen Hellingman"
        book.skipped = [SkippedMatter(kind: .gutenbergBoilerplate, title: "THE FULL PROJECT GUTENBERG LICENSE", words: 2910), SkippedMatter(kind: .notes, title: "Notes", words: 12)]
        book.parserVersion = 2

        // When
        let saved = try await sut.saveBook(book, contentHash: "h", sourcePath: "a.epub")
        let read = try await sut.getBook(id: saved.id)

        // Then
        #expect(read?.book == book)
    }

    @Test("a book stored before parser generations reads as generation 1, with nothing skipped")
    func oldRowsDefault() async throws {
        // Given a row written by the first schema's columns only
        try await dbQueue.write { db in
            try db.execute(sql: "INSERT INTO book (contentHash, sourcePath, format, title, dateAdded) VALUES ('old', 'old.txt', 'txt', 'Old', 0)")
        }

        // When
        let read = try await sut.getBook(contentHash: "old")

        // Then
        #expect(read?.book.parserVersion == 1)
        #expect(read?.book.skipped == [])
        #expect(read?.book.metadata.credits == nil)
    }

    @Test("migrations run once: a database opened twice keeps its books")
    func migrationsAreIdempotent() async throws {
        // Given
        let saved = try await sut.saveBook(.stub(), contentHash: "1", sourcePath: "a.epub")

        // When
        let reopened = BookRepository(database: try LibraryDatabase(dbQueue))

        // Then
        #expect(try await reopened.getAllBooks() == [saved])
        let migrations = try await dbQueue.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") }
        #expect(migrations.count == 6)
    }

    @Test("a chapter stored before chapters had a text offset reads back starting at the top of its page")
    func chapterStoredWithoutTextOffset() async throws {
        // Given a library at the first schema, with one book and one chapter row
        let queue = try DatabaseQueue()
        try LibraryDatabase.makeMigrator().migrate(queue, upTo: "v1 create search index")
        try await queue.write { db in
            try db.execute(sql: """
                INSERT INTO book (id, contentHash, sourcePath, format, title, dateAdded) VALUES (1, 'h', 'a.epub', 'epub', 'Old', 0);
                INSERT INTO chapter (bookId, position, title, depth, firstPage) VALUES (1, 0, 'One', 0, 1);
                INSERT INTO page (bookId, position, label, text) VALUES (1, 1, '1', 'Text.');
                """)
        }

        // When the library is opened now
        let repository = BookRepository(database: try LibraryDatabase(queue))
        let book = try await repository.getBook(id: BookID(rawValue: 1))

        // Then
        #expect(book?.book.chapters == [Chapter(title: "One", depth: 0, firstPage: 1, textOffset: 0)])
    }

    @Test("two repositories on one file, as two processes, see each other's books")
    func fileDatabaseSharedByTwoOpeners() async throws {
        // Given
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("narrate-library-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("nested/library.sqlite").path
        let first = BookRepository(database: try LibraryDatabase.openFile(at: path))
        let second = BookRepository(database: try LibraryDatabase.openFile(at: path))

        // When
        let one = try await first.saveBook(.stub(title: "One"), contentHash: "1", sourcePath: "1.epub")
        let two = try await second.saveBook(.stub(title: "Two"), contentHash: "2", sourcePath: "2.epub")
        try await second.updateProgress(bookID: one.id, progress: ReadingProgress(pageIndex: 2, updatedAt: Date(timeIntervalSince1970: 1)))

        // Then
        #expect(try await second.getBook(id: one.id)?.book == one.book)
        #expect(try await first.getBook(id: two.id) == two)
        #expect(try await first.getBook(id: one.id)?.progress?.pageIndex == 2)
        #expect(try await first.searchBooks(query: "two").map(\.bookID) == [two.id])
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        let third = BookRepository(database: try LibraryDatabase.openFile(at: path))
        #expect(try await third.getAllBooks().count == 2)
    }

    @Test("a book read again comes from memory while its row is unchanged, with the row's progress; another process's update or removal is seen at once")
    func rememberedBooks() async throws {
        // Given: one repository that has read a book, and another on the same file
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("narrate-library-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("library.sqlite").path
        let first = BookRepository(database: try LibraryDatabase.openFile(at: path))
        let second = BookRepository(database: try LibraryDatabase.openFile(at: path))
        let saved = try await first.saveBook(.stub(title: "Kept"), contentHash: "kept", sourcePath: "kept.epub")
        #expect(try await first.getBook(id: saved.id) == saved)

        // When: the other saves progress
        try await second.updateProgress(bookID: saved.id, progress: ReadingProgress(pageIndex: 2, updatedAt: Date(timeIntervalSince1970: 5)))

        // Then: the same book, with that progress
        let again = try #require(try await first.getBook(id: saved.id))
        #expect(again.book == saved.book)
        #expect(again.progress == ReadingProgress(pageIndex: 2, updatedAt: Date(timeIntervalSince1970: 5)))

        // When: the other replaces its pages, as a newer parser reading the file again does
        var updated = saved
        updated.book.pages = [Page(index: 1, label: "1", text: "Only this page now.")]
        updated.book.parserVersion += 1
        try await second.updateBook(updated)

        // Then: the new pages, not the remembered ones
        #expect(try await first.getBook(id: saved.id)?.book.pages == updated.book.pages)

        // When: the other removes it
        try await second.deleteBook(id: saved.id)

        // Then
        #expect(try await first.getBook(id: saved.id) == nil)
    }

    @Test("several openers racing to create the same file all succeed")
    func concurrentFirstOpen() async throws {
        // Given
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("narrate-library-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("library.sqlite").path

        // When: each opener has its own connections, as separate processes would
        let opened = try await withThrowingTaskGroup(of: LibraryDatabase.self) { group in
            for _ in 0..<4 {
                group.addTask { try LibraryDatabase.openFile(at: path) }
            }
            return try await group.reduce(into: [LibraryDatabase]()) { $0.append($1) }
        }

        // Then
        #expect(opened.count == 4)
        let saved = try await BookRepository(database: opened[0]).saveBook(.stub(), contentHash: "1", sourcePath: "a.epub")
        #expect(try await BookRepository(database: opened[3]).getBook(id: saved.id) == saved)
    }

    @Test("a file that is not a database fails with a library error, not a DatabaseError")
    func openCorruptFile() throws {
        // Given
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("narrate-library-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("library.sqlite").path
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))

        // When / Then
        let error = #expect(throws: BookError.self) { try LibraryDatabase.openFile(at: path) }
        guard case .libraryFailed = error else {
            Issue.record("expected libraryFailed, got \(String(describing: error))")
            return
        }
    }

    // MARK: - Size

    @Test("a 1,500-page book is saved in one transaction and read back whole, fast")
    func saveLargeBook() async throws {
        // Given
        let book = Book.large()
        let characters = book.pages.reduce(0) { $0 + $1.text.utf8.count }
        #expect(characters > 1_150_000)

        // When: three saves and loads, keeping the best times (the test machine is shared)
        let clock = ContinuousClock()
        var saved: [LibraryBook] = []
        var saveTimes: [Duration] = []
        var loadTimes: [Duration] = []
        for copy in 1...3 {
            let start = clock.now
            saved.append(try await sut.saveBook(book, contentHash: "large-\(copy)", sourcePath: "large.epub"))
            saveTimes.append(clock.now - start)
            let loadStart = clock.now
            let fetched = try await sut.getBook(id: saved[copy - 1].id)
            loadTimes.append(clock.now - loadStart)
            #expect(fetched == saved[copy - 1])
        }
        let saveTime = try #require(saveTimes.min())
        let loadTime = try #require(loadTimes.min())

        // Then
        print("BookRepository: saved \(book.pages.count) pages (\(characters) characters) in \(saveTime), loaded in \(loadTime)")
        #expect(try rowCount("page", of: saved[0].id) == 1_500)
        #expect(try rowCount("chapter", of: saved[0].id) == 150)
        #expect(try rowCount("pageSearch", of: saved[0].id) == 1_501)
        let word = String(book.pages[700].text.split(separator: " ")[3])
        #expect(try await sut.searchBooks(query: word).count == 3)
        // Speed targets live in scripts/benchmark-import.sh, not in tests.
    }
}
