/// The library of imported books (SQLite), with reading progress and full-text search.
public protocol BookRepositoryContract: Sendable {
    /// Every book, newest first.
    func getAllBooks() async throws(BookError) -> [LibraryBook]
    /// Every book's id and title, newest first: what finding a book by its title needs,
    /// without reading any book's pages.
    func getBookTitles() async throws(BookError) -> [BookTitle]
    /// The book with `id`, or `nil`.
    func getBook(id: BookID) async throws(BookError) -> LibraryBook?
    /// The book imported from a file with this content hash, or `nil`.
    func getBook(contentHash: String) async throws(BookError) -> LibraryBook?
    /// Saves a new book and returns it with its assigned id.
    func saveBook(_ book: Book, contentHash: String, sourcePath: String) async throws(BookError) -> LibraryBook
    /// Replaces a saved book's metadata, chapters and pages.
    func updateBook(_ book: LibraryBook) async throws(BookError)
    /// Deletes a book with its chapters, pages, cover and progress.
    /// - Throws: `BookError.bookNotFound` when there is no such book.
    func deleteBook(id: BookID) async throws(BookError)
    /// Full-text search over title, authors and page text: the matching books, best first,
    /// each with at most `hitsPerBook` of its matching places (best first), or every one
    /// when `hitsPerBook` is `nil`.
    func searchBooks(query: String, hitsPerBook: Int?) async throws(BookError) -> [BookSearchResult]
    /// Saves where the reader stopped.
    func updateProgress(bookID: BookID, progress: ReadingProgress) async throws(BookError)
    /// The cover image of a book, if it has one.
    func getCover(bookID: BookID) async throws(BookError) -> BookCover?
}

extension BookRepositoryContract {
    /// Full-text search giving each matching book once, on its best matching place.
    public func searchBooks(query: String) async throws(BookError) -> [BookSearchResult] {
        try await searchBooks(query: query, hitsPerBook: 1)
    }
}
