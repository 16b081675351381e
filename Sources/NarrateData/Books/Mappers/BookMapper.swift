import Foundation
import NarrateDomain

/// Converts between the library's rows and the domain's `LibraryBook`, `Book`, `Chapter`,
/// `Page` and `BookCover`. The only place that knows how a model is laid out in SQLite.
enum BookMapper {
    // MARK: - Domain → rows

    /// The `book` row of a new or updated book; `id` is nil until inserted.
    static func bookRecord(
        _ book: Book, id: BookID?, contentHash: String, sourcePath: String,
        dateAdded: Date, progress: ReadingProgress?
    ) -> BookRecord {
        BookRecord(
            id: id?.rawValue,
            contentHash: contentHash,
            sourcePath: sourcePath,
            format: book.format.rawValue,
            title: book.metadata.title,
            authors: encodeAuthors(book.metadata.authors),
            language: book.metadata.language,
            identifier: book.metadata.identifier,
            publisher: book.metadata.publisher,
            date: book.metadata.date,
            bookDescription: book.metadata.bookDescription,
            dateAdded: databaseTime(dateAdded),
            progressPage: progress?.pageIndex,
            progressUpdatedAt: progress.map { databaseTime($0.updatedAt) },
            credits: book.metadata.credits,
            skippedMatter: encodeSkipped(book.skipped),
            parserVersion: book.parserVersion,
            lexicons: encodeLexicons(book.lexicons)
        )
    }

    static func chapterRecords(_ chapters: [Chapter], bookID: BookID) -> [ChapterRecord] {
        chapters.enumerated().map { position, chapter in
            ChapterRecord(
                bookId: bookID.rawValue, position: position, title: chapter.title,
                depth: chapter.depth, firstPage: chapter.firstPage, textOffset: chapter.textOffset
            )
        }
    }

    static func pageRecord(_ page: Page, bookID: BookID) -> PageRecord {
        PageRecord(
            id: nil, bookId: bookID.rawValue, position: page.index, label: page.label,
            chapterIndex: page.chapterIndex, text: page.text
        )
    }

    static func coverRecord(_ cover: BookCover, bookID: BookID) -> CoverRecord {
        CoverRecord(bookId: bookID.rawValue, mediaType: cover.mediaType, data: Data(cover.data))
    }

    /// Authors as the search index holds them: one text, for the tokenizer.
    static func searchableAuthors(_ authors: [String]) -> String {
        authors.joined(separator: ", ")
    }

    // MARK: - Rows → domain

    /// The whole library book. `chapters` and `pages` must be the book's rows in position order.
    /// - Throws: `BookError.libraryFailed` when a stored value cannot be read back.
    static func libraryBook(
        _ record: BookRecord, chapters: [ChapterRecord], pages: [PageRecord], cover: CoverRecord?
    ) throws(BookError) -> LibraryBook {
        guard let id = record.id else {
            throw BookError.libraryFailed(reason: "a book row has no id")
        }
        guard let format = DocumentFormat(rawValue: record.format) else {
            throw BookError.libraryFailed(reason: "book \(id) has an unknown format '\(record.format)'")
        }
        let metadata = BookMetadata(
            title: record.title,
            authors: try decodeAuthors(record.authors, bookID: id),
            language: record.language,
            identifier: record.identifier,
            publisher: record.publisher,
            date: record.date,
            bookDescription: record.bookDescription,
            credits: record.credits
        )
        let book = Book(
            metadata: metadata,
            format: format,
            chapters: chapters.map(chapter),
            pages: pages.map(page),
            cover: cover.map(bookCover),
            skipped: try decodeSkipped(record.skippedMatter, bookID: id),
            parserVersion: record.parserVersion,
            lexicons: try decodeLexicons(record.lexicons, bookID: id)
        )
        return LibraryBook(
            id: BookID(rawValue: id),
            book: book,
            contentHash: record.contentHash,
            sourcePath: record.sourcePath,
            dateAdded: date(record.dateAdded),
            progress: progress(record)
        )
    }

    static func chapter(_ record: ChapterRecord) -> Chapter {
        Chapter(
            title: record.title, depth: record.depth, firstPage: record.firstPage, textOffset: record.textOffset
        )
    }

    static func page(_ record: PageRecord) -> Page {
        Page(index: record.position, label: record.label, chapterIndex: record.chapterIndex, text: record.text)
    }

    static func bookCover(_ record: CoverRecord) -> BookCover {
        BookCover(mediaType: record.mediaType, data: [UInt8](record.data))
    }

    static func progress(_ record: BookRecord) -> ReadingProgress? {
        guard let page = record.progressPage, let updatedAt = record.progressUpdatedAt else { return nil }
        return ReadingProgress(pageIndex: page, updatedAt: date(updatedAt))
    }

    static func decodeAuthors(_ json: String, bookID: Int64) throws(BookError) -> [String] {
        do {
            return try JSONDecoder().decode([String].self, from: Data(json.utf8))
        } catch {
            throw BookError.libraryFailed(reason: "book \(bookID) has unreadable authors '\(json)'")
        }
    }

    /// A book without lexicons stores NULL, as books stored before lexicons existed do.
    static func encodeLexicons(_ lexicons: [PronunciationLexicon]) -> String? {
        guard !lexicons.isEmpty, let data = try? JSONEncoder().encode(lexicons) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    static func decodeLexicons(_ json: String?, bookID: Int64) throws(BookError) -> [PronunciationLexicon] {
        guard let json else { return [] }
        do {
            return try JSONDecoder().decode([PronunciationLexicon].self, from: Data(json.utf8))
        } catch {
            throw BookError.libraryFailed(reason: "book \(bookID) has unreadable pronunciation lexicons")
        }
    }

    static func decodeSkipped(_ json: String, bookID: Int64) throws(BookError) -> [SkippedMatter] {
        do {
            return try JSONDecoder().decode([SkippedMatter].self, from: Data(json.utf8))
        } catch {
            throw BookError.libraryFailed(reason: "book \(bookID) has an unreadable list of skipped matter")
        }
    }

    // MARK: - Values

    static func encodeSkipped(_ skipped: [SkippedMatter]) -> String {
        let data = (try? JSONEncoder().encode(skipped)) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    static func encodeAuthors(_ authors: [String]) -> String {
        // Encoding an array of strings cannot fail.
        let data = (try? JSONEncoder().encode(authors)) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// Dates are stored as seconds since 1970 (`datetime(x, 'unixepoch')` reads them in SQL).
    static func databaseTime(_ date: Date) -> Double {
        date.timeIntervalSince1970
    }

    static func date(_ databaseTime: Double) -> Date {
        Date(timeIntervalSince1970: databaseTime)
    }
}
