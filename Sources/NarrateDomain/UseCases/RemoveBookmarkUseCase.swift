/// Removes one of a book's bookmarks.
public protocol RemoveBookmarkUseCaseContract: Sendable {
    /// - Returns: the book and the bookmark removed.
    /// - Throws: `BookmarkError.bookmarkNotFound` when the book has no such bookmark, and the
    ///   book's and library's errors as `.book`.
    func execute(reference: String, id: BookmarkID) async throws(BookmarkError) -> (book: LibraryBook, bookmark: Bookmark)
}

/// Removes a bookmark of a book (found by file, id or title); the reading progress stays.
public struct RemoveBookmarkUseCase: RemoveBookmarkUseCaseContract {
    private let books: any GetBookDetailUseCaseContract
    private let repository: any BookmarkRepositoryContract

    public init(books: any GetBookDetailUseCaseContract, repository: any BookmarkRepositoryContract) {
        self.books = books
        self.repository = repository
    }

    public func execute(reference: String, id: BookmarkID) async throws(BookmarkError) -> (book: LibraryBook, bookmark: Bookmark) {
        let book: LibraryBook
        let removed: Bookmark?
        do {
            book = try await books.execute(reference: reference)
            removed = try await repository.removeBookmark(id: id, bookID: book.id)
        } catch {
            throw .book(error)
        }
        guard let removed else { throw .bookmarkNotFound(id: id.description, title: book.book.metadata.title) }
        return (book, removed)
    }
}
