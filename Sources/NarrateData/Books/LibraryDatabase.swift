import Foundation
import GRDB
import NarrateDomain

/// The book library's SQLite database: one injected connection, its schema migrated in `init`.
///
/// Production code opens a file with ``openFile(at:)``; tests inject `DatabaseQueue()`, a fresh
/// in-memory database. There is no shared instance.
public struct LibraryDatabase: Sendable {
    /// The connection every read and write goes through.
    let writer: any DatabaseWriter

    /// Wraps `writer` and brings its schema up to date.
    /// - Parameter writer: A `DatabasePool` for a file, or `DatabaseQueue()` in memory.
    /// - Throws: `BookError.libraryFailed` when the schema cannot be migrated, or when the
    ///   connection does not enforce foreign keys (deletes rely on cascades).
    public init(_ writer: any DatabaseWriter) throws(BookError) {
        self.writer = writer
        do {
            try Self.migrateAllowingConcurrentOpeners(writer)
            let foreignKeys = try writer.read { db in try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") }
            guard foreignKeys == true else {
                throw BookError.libraryFailed(reason: "the database connection does not enforce foreign keys")
            }
        } catch {
            throw BookError.library(error, while: "preparing the library database")
        }
    }

    /// Opens (creating it and its parent folders if needed) the library database file at `path`.
    ///
    /// The file is in WAL mode with a busy timeout, so several `narrate` processes can share it.
    /// - Throws: `BookError.libraryFailed` when the folder or the file cannot be created or opened.
    public static func openFile(at path: String) throws(BookError) -> LibraryDatabase {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw BookError.libraryFailed(reason: "could not create the folder '\(folder.path)': \(error.localizedDescription)")
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.foreignKeysEnabled = true
        let pool: DatabasePool
        do {
            // A pool always runs in WAL mode: readers never block the writer of another process.
            pool = try SharedDatabase.openPool(path: path, configuration: configuration)
        } catch {
            // A library that cannot be written (a read-only mount) still answers reads.
            if FileManager.default.fileExists(atPath: path), let readOnly = try? openReadOnly(at: path) { return readOnly }
            throw BookError.library(error, while: "opening '\(path)'")
        }
        return try LibraryDatabase(pool)
    }

    /// Opens an existing, up-to-date library file for reading only: `list`, `show`, `search`,
    /// `toc` and `page` work; what would write (adding a book, progress) fails with SQLite's
    /// "readonly" error.
    static func openReadOnly(at path: String) throws -> LibraryDatabase {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.foreignKeysEnabled = true
        // `immutable`: no -shm file is needed (none can be created in a read-only folder), as
        // no process can be writing where no process can write.
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let uri = "file:" + (absolute.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? absolute) + "?immutable=1"
        let queue = try DatabaseQueue(path: uri, configuration: configuration)
        guard try queue.read({ db in try makeMigrator().hasCompletedMigrations(db) }) else {
            throw BookError.libraryFailed(reason: "the library '\(path)' cannot be written and is of an older format")
        }
        return LibraryDatabase(readOnly: queue)
    }

    private init(readOnly queue: DatabaseQueue) {
        writer = queue
    }

    /// A fresh, empty library in memory: for tests and previews.
    public static func inMemory() throws(BookError) -> LibraryDatabase {
        do {
            return try LibraryDatabase(DatabaseQueue())
        } catch let error as BookError {
            throw error
        } catch {
            throw BookError.library(error, while: "opening an in-memory library")
        }
    }

    /// Runs the migrations, retrying when another process applied one between our check and
    /// our write (GRDB reads the applied list outside the migration's transaction).
    private static func migrateAllowingConcurrentOpeners(_ writer: any DatabaseWriter) throws {
        let migrator = makeMigrator()
        let attempts = 3
        for attempt in 1...attempts {
            do {
                try migrator.migrate(writer)
                return
            } catch where attempt < attempts {
                continue
            }
        }
    }

    /// The schema's history. Never edit a registered migration: add a new one.
    static func makeMigrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()

        migrator.registerMigration("v1 create books") { db in
            try db.execute(sql: """
                CREATE TABLE book (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    contentHash TEXT NOT NULL UNIQUE,
                    sourcePath TEXT NOT NULL,
                    format TEXT NOT NULL,
                    title TEXT NOT NULL,
                    authors TEXT NOT NULL DEFAULT '[]', -- JSON array of strings
                    language TEXT,
                    identifier TEXT,
                    publisher TEXT,
                    date TEXT,
                    description TEXT,
                    dateAdded DOUBLE NOT NULL,          -- seconds since 1970
                    progressPage INTEGER,
                    progressUpdatedAt DOUBLE            -- seconds since 1970
                );
                CREATE INDEX book_on_dateAdded ON book(dateAdded);

                CREATE TABLE chapter (
                    bookId INTEGER NOT NULL REFERENCES book(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,          -- 0-based index into Book.chapters
                    title TEXT NOT NULL,
                    depth INTEGER NOT NULL,
                    firstPage INTEGER NOT NULL,
                    PRIMARY KEY (bookId, position)
                );

                CREATE TABLE page (
                    id INTEGER PRIMARY KEY,             -- also the rowid of the page's search row
                    bookId INTEGER NOT NULL REFERENCES book(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,          -- Page.index, 1-based
                    label TEXT NOT NULL,
                    chapterIndex INTEGER,
                    text TEXT NOT NULL,
                    UNIQUE (bookId, position)
                );

                CREATE TABLE cover (
                    bookId INTEGER PRIMARY KEY REFERENCES book(id) ON DELETE CASCADE,
                    mediaType TEXT NOT NULL,
                    data BLOB NOT NULL
                );
                """)
        }

        migrator.registerMigration("v1 create search index") { db in
            // One row per page (rowid = page.id, text only) and one row per book
            // (rowid = -book.id, pageIndex NULL, title and authors only), so a title match
            // does not make every page of the book match.
            try db.execute(sql: """
                CREATE VIRTUAL TABLE pageSearch USING fts5(
                    bookId UNINDEXED,
                    pageIndex UNINDEXED,
                    title,
                    authors,
                    text,
                    tokenize = 'unicode61 remove_diacritics 2'
                )
                """)
        }

        migrator.registerMigration("v2 add book lexicons") { db in
            // A JSON array of PronunciationLexicon; NULL for books stored before.
            try db.execute(sql: "ALTER TABLE book ADD COLUMN lexicons TEXT")
        }

        migrator.registerMigration("v2 credits, skipped matter, parser version") { db in
            try db.execute(sql: """
                ALTER TABLE book ADD COLUMN credits TEXT;
                ALTER TABLE book ADD COLUMN skippedMatter TEXT NOT NULL DEFAULT '[]'; -- JSON array of SkippedMatter
                ALTER TABLE book ADD COLUMN parserVersion INTEGER NOT NULL DEFAULT 1; -- Book.parserVersion
                """)
        }

        migrator.registerMigration("v2 chapter text offset") { db in
            // Books stored before keep 0: their chapters start at the top of their first page, as they did.
            try db.execute(sql: "ALTER TABLE chapter ADD COLUMN textOffset INTEGER NOT NULL DEFAULT 0")
        }

        migrator.registerMigration("v3 bookmarks") { db in
            // A place the listener marked: a page and a place on it (UTF-16 units of its text),
            // with an optional note. Kept by page index, as the progress is, so a book read
            // again by newer parsers keeps its bookmarks; they go with the book.
            try db.execute(sql: """
                CREATE TABLE bookmark (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    bookId INTEGER NOT NULL REFERENCES book(id) ON DELETE CASCADE,
                    pageIndex INTEGER NOT NULL,         -- Page.index, 1-based
                    textOffset INTEGER NOT NULL DEFAULT 0,
                    note TEXT,
                    createdAt DOUBLE NOT NULL           -- seconds since 1970
                );
                CREATE INDEX bookmark_on_bookId ON bookmark(bookId, pageIndex, textOffset);
                """)
        }

        return migrator
    }
}
