/// One book, named by file path, library id or title prefix (a file is imported on first use).
public protocol GetBookDetailUseCaseContract: Sendable {
    /// - Throws: `BookError.bookNotFound`, `.ambiguousBook`, and import errors for a file.
    func execute(reference: String) async throws(BookError) -> LibraryBook
}

/// Finds the book a reference names — a file (added on first use), a library id, or a title
/// prefix — read again by today's parsers when it was added by older ones.
public struct GetBookDetailUseCase: GetBookDetailUseCaseContract {
    private let resolver: BookResolver

    public init(bookRepository: any BookRepositoryContract, sourceRepository: any BookSourceRepositoryContract, includesMatter: Bool = false) {
        resolver = BookResolver(library: bookRepository, source: sourceRepository, includesMatter: includesMatter)
    }

    public func execute(reference: String) async throws(BookError) -> LibraryBook {
        try await resolver.resolve(reference).book
    }
}
