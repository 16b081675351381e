/// A book's bookmarks, in reading order.
public protocol GetBookmarksUseCaseContract: Sendable {
    /// - Parameter reference: a file path (added to the library on first use), a library id, or a title prefix.
    /// - Throws: `BookmarkError.book` when the book cannot be found or the library fails.
    func execute(reference: String) async throws(BookmarkError) -> (book: LibraryBook, bookmarks: [Bookmark])
}

/// Lists a book's bookmarks: by page, place on the page, then age.
public struct GetBookmarksUseCase: GetBookmarksUseCaseContract {
    private let books: any GetBookDetailUseCaseContract
    private let repository: any BookmarkRepositoryContract

    public init(books: any GetBookDetailUseCaseContract, repository: any BookmarkRepositoryContract) {
        self.books = books
        self.repository = repository
    }

    public func execute(reference: String) async throws(BookmarkError) -> (book: LibraryBook, bookmarks: [Bookmark]) {
        do {
            let book = try await books.execute(reference: reference)
            return (book, try await repository.getBookmarks(bookID: book.id))
        } catch {
            throw .book(error)
        }
    }
}
