import Foundation
import GRDB
import NarrateDomain

/// The library of imported books, stored in SQLite through GRDB, with FTS5 full-text search.
///
/// Each operation is one read or one write transaction. Every database error is mapped to
/// `BookError.libraryFailed`; a missing book is `BookError.bookNotFound`.
public struct BookRepository: BookRepositoryContract {
    private let writer: any DatabaseWriter
    private let now: @Sendable () -> Date
    /// The last books read whole by id, served again while their row is unchanged.
    private let memo = BookMemo()

    /// - Parameters:
    ///   - database: The migrated library database.
    ///   - clock: Gives `dateAdded` to saved books; tests pin it.
    public init(database: LibraryDatabase, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.writer = database.writer
        self.now = clock
    }

    // MARK: - Reading

    public func getAllBooks() async throws(BookError) -> [LibraryBook] {
        try await read("listing the library") { db in try Self.fetchAll(db) }
    }

    public func getBookTitles() async throws(BookError) -> [BookTitle] {
        try await read("listing the library's titles") { db in
            try Row.fetchAll(db, sql: "SELECT id, title FROM book ORDER BY dateAdded DESC, id DESC").map { row in
                BookTitle(id: BookID(rawValue: row["id"]), title: row["title"])
            }
        }
    }

    public func getBook(id: BookID) async throws(BookError) -> LibraryBook? {
        try await read("reading book \(id)") { [memo] db in
            guard let record = try BookRecord.fetchOne(db, key: id.rawValue) else { return nil }
            if let kept = memo.book(for: record) { return kept }
            let book = try Self.fetchBook(db, record: record)
            if let book { memo.remember(book, readWith: record) }
            return book
        }
    }

    public func getBook(contentHash: String) async throws(BookError) -> LibraryBook? {
        try await read("looking up a book by content") { db in
            try Self.fetchBook(db, where: "contentHash = ?", contentHash)
        }
    }

    public func getCover(bookID: BookID) async throws(BookError) -> BookCover? {
        try await read("reading the cover of book \(bookID)") { db in
            try CoverRecord.fetchOne(db, key: bookID.rawValue).map(BookMapper.bookCover)
        }
    }

    // MARK: - Writing

    public func saveBook(_ book: Book, contentHash: String, sourcePath: String) async throws(BookError) -> LibraryBook {
        // Round-trip the date through its stored form, so the returned book equals a re-read one.
        let dateAdded = BookMapper.date(BookMapper.databaseTime(now()))
        let title = book.metadata.title
        return try await write("saving '\(title)'") { db in
            var record = BookMapper.bookRecord(
                book, id: nil, contentHash: contentHash, sourcePath: sourcePath,
                dateAdded: dateAdded, progress: nil
            )
            do {
                try record.insert(db)
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                throw BookError.libraryFailed(
                    reason: "the library already has a book with the content of '\(sourcePath)' (hash \(contentHash.prefix(12)))"
                )
            }
            guard let rawID = record.id else {
                throw BookError.libraryFailed(reason: "saving '\(title)' gave no id")
            }
            let id = BookID(rawValue: rawID)
            try Self.insertContents(of: book, bookID: id, db)
            return LibraryBook(id: id, book: book, contentHash: contentHash, sourcePath: sourcePath, dateAdded: dateAdded)
        }
    }

    /// Replaces the book's metadata, format, content hash, source path, chapters, pages and
    /// cover. `dateAdded` and the reading progress stay as stored (see `updateProgress`).
    public func updateBook(_ book: LibraryBook) async throws(BookError) {
        defer { memo.forget(book.id.rawValue) }
        try await write("updating book \(book.id)") { db in
            guard let stored = try BookRecord.fetchOne(db, key: book.id.rawValue) else {
                throw BookError.bookNotFound(reference: book.id.description)
            }
            let progress = BookMapper.progress(stored)
            let record = BookMapper.bookRecord(
                book.book, id: book.id, contentHash: book.contentHash, sourcePath: book.sourcePath,
                dateAdded: BookMapper.date(stored.dateAdded), progress: progress
            )
            try record.update(db)
            try Self.deleteContents(ofBook: book.id, db)
            try Self.insertContents(of: book.book, bookID: book.id, db)
        }
    }

    public func deleteBook(id: BookID) async throws(BookError) {
        defer { memo.forget(id.rawValue) }
        try await write("deleting book \(id)") { db in
            guard try BookRecord.exists(db, key: id.rawValue) else {
                throw BookError.bookNotFound(reference: id.description)
            }
            // The search rows have no foreign key: remove them while the page ids are known.
            try Self.deleteSearchRows(ofBook: id, db)
            // Chapters, pages and cover go by ON DELETE CASCADE.
            _ = try BookRecord.deleteOne(db, key: id.rawValue)
        }
    }

    public func updateProgress(bookID: BookID, progress: ReadingProgress) async throws(BookError) {
        try await write("saving the progress of book \(bookID)") { db in
            try db.execute(
                sql: "UPDATE book SET progressPage = ?, progressUpdatedAt = ? WHERE id = ?",
                arguments: [progress.pageIndex, BookMapper.databaseTime(progress.updatedAt), bookID.rawValue]
            )
            if db.changesCount == 0 {
                throw BookError.bookNotFound(reference: bookID.description)
            }
        }
    }

    // MARK: - Search

    /// Books whose title and authors, or one of whose pages, contain every word of `query`,
    /// best first (FTS5 bm25, title weighing most). Words are matched whole, ignoring case and
    /// diacritics; a query mixing a title word with a word of the text finds nothing, since
    /// title and pages are indexed apart. An empty or wordless query finds nothing. Each book
    /// gives at most `hitsPerBook` places (pages before its title row), or all when `nil`.
    public func searchBooks(query: String, hitsPerBook: Int?) async throws(BookError) -> [BookSearchResult] {
        guard let pattern = FullTextQuery.pattern(for: query) else { return [] }
        return try await read("searching for '\(query)'") { db in
            try Self.search(pattern: pattern, hitsPerBook: hitsPerBook, db)
        }
    }

    // MARK: - Transactions and error mapping

    /// One read transaction. A `BookError` thrown by `body` passes as is; any other error
    /// becomes `BookError.libraryFailed` naming `action`.
    private func read<T: Sendable>(
        _ action: String, _ body: @escaping @Sendable (Database) throws -> T
    ) async throws(BookError) -> T {
        do {
            return try await writer.read(body)
        } catch {
            throw BookError.library(error, while: action)
        }
    }

    /// One write transaction: everything in `body` is committed together or not at all.
    /// Errors are mapped as in `read`.
    private func write<T: Sendable>(
        _ action: String, _ body: @escaping @Sendable (Database) throws -> T
    ) async throws(BookError) -> T {
        do {
            return try await writer.write(body)
        } catch {
            throw BookError.library(error, while: action)
        }
    }
}

// MARK: - Queries

extension BookRepository {
    private static func fetchBook(
        _ db: Database, where condition: String, _ argument: some DatabaseValueConvertible
    ) throws -> LibraryBook? {
        guard let record = try BookRecord.fetchOne(db, sql: "SELECT * FROM book WHERE \(condition)", arguments: [argument]) else { return nil }
        return try fetchBook(db, record: record)
    }

    /// The book of a row already read: its chapters, pages and cover.
    private static func fetchBook(_ db: Database, record: BookRecord) throws -> LibraryBook? {
        guard let id = record.id else { return nil }
        let chapters = try ChapterRecord.fetchAll(
            db, sql: "SELECT * FROM chapter WHERE bookId = ? ORDER BY position", arguments: [id])
        let pages = try PageRecord.fetchAll(
            db, sql: "SELECT * FROM page WHERE bookId = ? ORDER BY position", arguments: [id])
        let cover = try CoverRecord.fetchOne(db, key: id)
        return try BookMapper.libraryBook(record, chapters: chapters, pages: pages, cover: cover)
    }

    /// Four queries for the whole library rather than four per book.
    private static func fetchAll(_ db: Database) throws -> [LibraryBook] {
        let records = try BookRecord.fetchAll(db, sql: "SELECT * FROM book ORDER BY dateAdded DESC, id DESC")
        let chapters = Dictionary(grouping: try ChapterRecord.fetchAll(
            db, sql: "SELECT * FROM chapter ORDER BY bookId, position"), by: \.bookId)
        let pages = Dictionary(grouping: try PageRecord.fetchAll(
            db, sql: "SELECT * FROM page ORDER BY bookId, position"), by: \.bookId)
        let covers = Dictionary(
            try CoverRecord.fetchAll(db).map { ($0.bookId, $0) }, uniquingKeysWith: { first, _ in first })
        return try records.map { record in
            let id = record.id ?? 0
            return try BookMapper.libraryBook(
                record, chapters: chapters[id] ?? [], pages: pages[id] ?? [], cover: covers[id])
        }
    }

    /// The best `hitsPerBook` rows of each matching book (its pages best first, then its book
    /// row when only the title or authors match there too), books ordered by their best row;
    /// then a snippet of each returned row alone, so snippets are not computed for every
    /// matching page of the library.
    private static func search(pattern: String, hitsPerBook: Int?, _ db: Database) throws -> [BookSearchResult] {
        let best = try Row.fetchAll(db, sql: """
            WITH hit AS (
                SELECT rowid AS hitRowid, bookId, pageIndex,
                       bm25(pageSearch, 0.0, 0.0, 10.0, 5.0, 1.0) AS score
                FROM pageSearch
                WHERE pageSearch MATCH ?
            ), ranked AS (
                SELECT hitRowid, bookId, pageIndex,
                       MIN(score) OVER (PARTITION BY bookId) AS bookScore,
                       COUNT(*) OVER (PARTITION BY bookId) AS bookMatchCount,
                       ROW_NUMBER() OVER (
                           PARTITION BY bookId ORDER BY pageIndex IS NULL, score, pageIndex
                       ) AS place
                FROM hit
            )
            SELECT ranked.hitRowid, ranked.bookId, ranked.pageIndex, ranked.bookMatchCount,
                   book.title, book.authors
            FROM ranked JOIN book ON book.id = ranked.bookId
            WHERE ? IS NULL OR ranked.place <= ?
            ORDER BY ranked.bookScore, book.id, ranked.place
            """, arguments: [pattern, hitsPerBook, hitsPerBook])
        let snippetStatement = try db.cachedStatement(sql: """
            SELECT snippet(pageSearch, -1, '', '', '…', 16)
            FROM pageSearch WHERE pageSearch MATCH ? AND rowid = ?
            """)
        return try best.map { row in
            let bookID: Int64 = row["bookId"]
            let snippet = try String.fetchOne(snippetStatement, arguments: [pattern, row["hitRowid"] as Int64]) ?? ""
            return BookSearchResult(
                bookID: BookID(rawValue: bookID),
                title: row["title"],
                authors: try BookMapper.decodeAuthors(row["authors"], bookID: bookID),
                pageIndex: row["pageIndex"],
                snippet: snippet,
                bookMatchCount: row["bookMatchCount"]
            )
        }
    }
}

// MARK: - Writing contents

extension BookRepository {
    /// Inserts chapters, pages, cover and search rows of a book whose `book` row exists.
    private static func insertContents(of book: Book, bookID: BookID, _ db: Database) throws {
        for chapter in BookMapper.chapterRecords(book.chapters, bookID: bookID) {
            try chapter.insert(db)
        }
        let search = try db.cachedStatement(sql: """
            INSERT INTO pageSearch (rowid, bookId, pageIndex, title, authors, text)
            VALUES (?, ?, ?, ?, ?, ?)
            """)
        try search.execute(arguments: [
            -bookID.rawValue, bookID.rawValue, nil, book.metadata.title,
            BookMapper.searchableAuthors(book.metadata.authors), "",
        ])
        for page in book.pages {
            var record = BookMapper.pageRecord(page, bookID: bookID)
            try record.insert(db)
            try search.execute(arguments: [record.id, bookID.rawValue, page.index, "", "", page.text])
        }
        if let cover = book.cover {
            try BookMapper.coverRecord(cover, bookID: bookID).insert(db)
        }
    }

    /// Deletes chapters, pages, cover and search rows, keeping the `book` row.
    private static func deleteContents(ofBook id: BookID, _ db: Database) throws {
        try deleteSearchRows(ofBook: id, db)
        try db.execute(sql: "DELETE FROM chapter WHERE bookId = ?", arguments: [id.rawValue])
        try db.execute(sql: "DELETE FROM page WHERE bookId = ?", arguments: [id.rawValue])
        try db.execute(sql: "DELETE FROM cover WHERE bookId = ?", arguments: [id.rawValue])
    }

    /// Search rows are keyed by rowid (page id, or minus the book id), which FTS5 finds directly;
    /// `bookId` is an unindexed column there.
    private static func deleteSearchRows(ofBook id: BookID, _ db: Database) throws {
        try db.execute(
            sql: "DELETE FROM pageSearch WHERE rowid IN (SELECT id FROM page WHERE bookId = ?)",
            arguments: [id.rawValue]
        )
        try db.execute(sql: "DELETE FROM pageSearch WHERE rowid = ?", arguments: [-id.rawValue])
    }
}
