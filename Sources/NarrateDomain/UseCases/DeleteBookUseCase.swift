/// Removes a book from the library, with its pages, cover and progress. Files on disk stay.
public protocol DeleteBookUseCaseContract: Sendable {
    /// - Returns: the book that was removed.
    func execute(reference: String) async throws(BookError) -> LibraryBook
}

/// Removes a book from the library (found by file, id or title) with its pages, cover and progress.
public struct DeleteBookUseCase: DeleteBookUseCaseContract {
    private let repository: any BookRepositoryContract
    private let resolver: BookResolver

    public init(bookRepository: any BookRepositoryContract, sourceRepository: any BookSourceRepositoryContract) {
        repository = bookRepository
        resolver = BookResolver(library: bookRepository, source: sourceRepository)
    }

    public func execute(reference: String) async throws(BookError) -> LibraryBook {
        let book: LibraryBook
        let trimmed = reference.trimmingWhitespace
        if BookResolver.looksLikePath(trimmed) {
            // Removing a file that is not in the library must not import it first.
            let hash = try await resolver.source.contentHash(ofFileAt: trimmed)
            guard let found = try await repository.getBook(contentHash: hash) else { throw .bookNotFound(reference: reference) }
            book = found
        } else {
            book = try await resolver.resolve(reference).book
        }
        try await repository.deleteBook(id: book.id)
        return book
    }
}
