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

    // MARK: - Search

    @Test("search finds a book by its title, with no page")
    func searchByTitle() async throws {
        // Given
        let saved = try await sut.saveBook(.stub(), contentHash: "1", sourcePath: "a.epub")

        // When
        let results = try await sut.searchBooks(query: "moby")

        // Then
        #expect(results == [
            BookSearchResult(bookID: saved.id, title: "Moby-Dick", authors: ["Herman Melville"], pageIndex: nil, snippet: "Moby-Dick"),
        ])
    }

    @Test("search finds a book by an author")
    func searchByAuthor() async throws {
        // Given
        let saved = try await sut.saveBook(.stub(authors: ["Jane Doe", "Herman Melville"]), contentHash: "1", sourcePath: "a.epub")

        // When
        let results = try await sut.searchBooks(query: "Melville")

        // Then
        #expect(results.map(\.bookID) == [saved.id])
        #expect(results.first?.pageIndex == nil)
        #expect(results.first?.authors == ["Jane Doe", "Herman Melville"])
        #expect(results.first?.snippet.contains("Melville") == true)
    }

    @Test("search finds a word in the text, with the page it is on")
    func searchByPageText() async throws {
        // Given
        let saved = try await sut.saveBook(.stub(), contentHash: "1", sourcePath: "a.epub")

        // When
        let results = try await sut.searchBooks(query: "pale usher")

        // Then
        #expect(results.count == 1)
        #expect(results.first?.bookID == saved.id)
        #expect(results.first?.pageIndex == 2)
        #expect(results.first?.snippet.contains("Usher") == true)
    }

    @Test("search ignores case and diacritics")
    func searchIgnoresCaseAndDiacritics() async throws {
        // Given
        _ = try await sut.saveBook(.stub(pages: ["Nothing here.", "They met at the Café Müller."]), contentHash: "1", sourcePath: "a.epub")

        // When / Then
        #expect(try await sut.searchBooks(query: "CAFE muller").map(\.pageIndex) == [2])
        #expect(try await sut.searchBooks(query: "ISHMAEL").isEmpty)
        #expect(try await sut.searchBooks(query: "mOBy").count == 1)
    }

    @Test("search gives one result per book, on its best page")
    func searchOneResultPerBook() async throws {
        // Given
        let saved = try await sut.saveBook(
            .stub(pages: ["The sea, and more words around the sea.", "Sea sea sea.", "A sea."]),
            contentHash: "1", sourcePath: "a.epub")

        // When
        let results = try await sut.searchBooks(query: "sea")

        // Then
        #expect(results.map(\.bookID) == [saved.id])
        #expect(results.first?.pageIndex == 2)
    }

    @Test("search gives up to the asked number of pages per book, best first, and counts every match")
    func searchSeveralHitsPerBook() async throws {
        // Given
        let saved = try await sut.saveBook(
            .stub(pages: [
                "The sea, and more words around the sea.", "Sea sea sea.", "A sea.", "Nothing here.",
                "A long page of many words with the sea only once in it, somewhere far from the start.",
            ]),
            contentHash: "1", sourcePath: "a.epub")

        // When
        let results = try await sut.searchBooks(query: "sea", hitsPerBook: 3)

        // Then
        #expect(results.map(\.bookID) == [saved.id, saved.id, saved.id])
        #expect(results.first?.pageIndex == 2)
        #expect(Set(results.compactMap(\.pageIndex)) == [1, 2, 3])
        #expect(results.allSatisfy { $0.bookMatchCount == 4 })
        #expect(results.allSatisfy { $0.snippet.lowercased().contains("sea") })
    }

    @Test("search without a limit gives every matching page, then the title and authors row")
    func searchEveryHit() async throws {
        // Given
        _ = try await sut.saveBook(
            .stub(title: "The Sea", pages: ["The sea, and more words around the sea.", "Sea sea sea.", "Nothing here.", "A sea."]),
            contentHash: "1", sourcePath: "a.epub")

        // When
        let results = try await sut.searchBooks(query: "sea", hitsPerBook: nil)

        // Then
        #expect(results.count == 4)
        #expect(Set(results.compactMap(\.pageIndex)) == [1, 2, 4])
        #expect(results.last?.pageIndex == nil)
        #expect(results.allSatisfy { $0.bookMatchCount == 4 })
    }

    @Test("a book's hits stay together, books in the order of their best hit")
    func searchGroupsHitsByBook() async throws {
        // Given
        let textOnly = try await sut.saveBook(
            .stub(title: "Sea Stories", pages: ["A whale.", "Another whale here.", "No more."]),
            contentHash: "1", sourcePath: "a.epub")
        let titled = try await sut.saveBook(
            .stub(title: "The Whale", pages: ["The whale again.", "Nothing to see."]),
            contentHash: "2", sourcePath: "b.epub")

        // When
        let results = try await sut.searchBooks(query: "whale", hitsPerBook: 5)

        // Then
        #expect(results.map(\.bookID) == [titled.id, titled.id, textOnly.id, textOnly.id])
        #expect(results.map(\.bookMatchCount) == [2, 2, 2, 2])
        #expect(Set(results.filter { $0.bookID == textOnly.id }.compactMap(\.pageIndex)) == [1, 2])
    }

    @Test("search ranks a title match above a match in the text")
    func searchRanksTitleFirst() async throws {
        // Given
        let textOnly = try await sut.saveBook(.stub(title: "Sea Stories"), contentHash: "1", sourcePath: "a.epub")
        let titled = try await sut.saveBook(.stub(title: "The Whale", pages: ["Nothing to see."]), contentHash: "2", sourcePath: "b.epub")

        // When
        let results = try await sut.searchBooks(query: "whale")

        // Then
        #expect(results.map(\.bookID) == [titled.id, textOnly.id])
        #expect(results.map(\.pageIndex) == [nil, 3])
    }

    @Test("search treats operators and quotes as plain words", arguments: [
        "\"", "\"foo", "AND", "AND(", "OR NOT", "*", "whale*", "NEAR(", "NEAR(call me, 2)",
        "title:moby", "^call", "-", "(", ")", "{title}: x", "'; DROP TABLE book; --", "\u{0}",
        "whale\u{0}", "wh\u{0}ale\"", "\u{1F}whale",
    ])
    func searchSurvivesHostileQueries(query: String) async throws {
        // Given
        _ = try await sut.saveBook(.stub(), contentHash: "1", sourcePath: "a.epub")

        // When
        let results = try await sut.searchBooks(query: query)

        // Then: no error, and the library is intact
        #expect(results.count <= 1)
        #expect(try await sut.getAllBooks().count == 1)
    }

    @Test("search with no words finds nothing", arguments: ["", "   ", "\"", "* * *", "()", "\"\""])
    func searchEmpty(query: String) async throws {
        // Given
        _ = try await sut.saveBook(.stub(), contentHash: "1", sourcePath: "a.epub")

        // When / Then
        #expect(try await sut.searchBooks(query: query).isEmpty)
    }

    @Test("a quoted word still matches: the quotes are not part of the word")
    func searchQuotedWord() async throws {
        // Given
        _ = try await sut.saveBook(.stub(), contentHash: "1", sourcePath: "a.epub")

        // When / Then
        #expect(try await sut.searchBooks(query: "\"whale\"").map(\.pageIndex) == [3])
        #expect(try await sut.searchBooks(query: "whale*").map(\.pageIndex) == [3])
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
        #expect(migrations.count == 5)
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

    // MARK: - Helpers

    private func rowCount(_ table: String, of id: BookID) throws -> Int {
        try dbQueue.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table) WHERE bookId = ?", arguments: [id.rawValue]) ?? 0
        }
    }
}
