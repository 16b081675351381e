/// One page of a book: by printed label, 1-based index, or `#index`.
public protocol GetPageUseCaseContract: Sendable {
    /// - Throws: `BookError.pageNotFound` naming the page count, and book lookup errors.
    func execute(reference: String, page: String) async throws(BookError) -> (book: LibraryBook, page: Page)
}

/// One page of a book, by its printed label, its number, or `#N`.
public struct GetPageUseCase: GetPageUseCaseContract {
    private let resolver: BookResolver

    public init(bookRepository: any BookRepositoryContract, sourceRepository: any BookSourceRepositoryContract, includesMatter: Bool = false) {
        resolver = BookResolver(library: bookRepository, source: sourceRepository, includesMatter: includesMatter)
    }

    public func execute(reference: String, page: String) async throws(BookError) -> (book: LibraryBook, page: Page) {
        let book = try await resolver.resolve(reference).book
        guard let found = PageSelector.select(page, in: book.book.pages) else {
            throw .pageNotFound(page: page, pageCount: book.book.pages.count)
        }
        return (book, found)
    }
}
