import struct Foundation.Date

/// Marks a place in a book, with an optional note.
public protocol AddBookmarkUseCaseContract: Sendable {
    /// - Parameters:
    ///   - reference: a file path (added to the library on first use), a library id, or a title prefix.
    ///   - page: the page, by printed label, number, or `#index`.
    ///   - textOffset: where on the page, in UTF-16 code units of its text (0: its top).
    ///   - note: what to keep with it; blank is none.
    /// - Throws: `BookmarkError.book(.pageNotFound)`, `.offsetOutsidePage`, `.noteTooLong`,
    ///   `.tooManyBookmarks`, and the book's and library's errors as `.book`.
    func execute(reference: String, page: String, textOffset: Int, note: String?) async throws(BookmarkError) -> (book: LibraryBook, bookmark: Bookmark)
}

/// Saves a bookmark at a page and place, with the note trimmed; the reading progress stays.
public struct AddBookmarkUseCase: AddBookmarkUseCaseContract {
    /// The longest note kept, in characters.
    public static let noteLimit = 1_000
    /// The most bookmarks one book may have.
    public static let bookmarkLimit = 1_000

    private let books: any GetBookDetailUseCaseContract
    private let repository: any BookmarkRepositoryContract
    private let clock: @Sendable () -> Date

    public init(books: any GetBookDetailUseCaseContract, repository: any BookmarkRepositoryContract, clock: @escaping @Sendable () -> Date) {
        self.books = books
        self.repository = repository
        self.clock = clock
    }

    public func execute(reference: String, page: String, textOffset: Int, note: String?) async throws(BookmarkError) -> (book: LibraryBook, bookmark: Bookmark) {
        let trimmed = note?.trimmingWhitespace ?? ""
        guard trimmed.count <= Self.noteLimit else { throw .noteTooLong(length: trimmed.count, limit: Self.noteLimit) }
        let book: LibraryBook
        do {
            book = try await books.execute(reference: reference)
        } catch {
            throw .book(error)
        }
        guard let found = PageSelector.select(page, in: book.book.pages) else {
            throw .book(.pageNotFound(page: page, pageCount: book.book.pages.count))
        }
        let length = found.text.utf16.count
        guard (0...length).contains(textOffset) else {
            throw .offsetOutsidePage(offset: textOffset, page: found.label, length: length)
        }
        let existing: [Bookmark]
        do {
            existing = try await repository.getBookmarks(bookID: book.id)
        } catch {
            throw .book(error)
        }
        guard existing.count < Self.bookmarkLimit else {
            throw .tooManyBookmarks(title: book.book.metadata.title, limit: Self.bookmarkLimit)
        }
        do {
            let bookmark = try await repository.addBookmark(
                bookID: book.id, pageIndex: found.index, textOffset: textOffset, note: trimmed.isEmpty ? nil : trimmed, createdAt: clock())
            return (book, bookmark)
        } catch {
            throw .book(error)
        }
    }
}
