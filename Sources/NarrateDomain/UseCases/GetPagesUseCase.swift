/// A book with its pages in reading order, named by file path, library id or title prefix.
public protocol GetPagesUseCaseContract: Sendable {
    func execute(reference: String) async throws(BookError) -> LibraryBook
}

/// A book with all its pages, for listings and `narrate text`.
public struct GetPagesUseCase: GetPagesUseCaseContract {
    private let resolver: BookResolver

    public init(bookRepository: any BookRepositoryContract, sourceRepository: any BookSourceRepositoryContract, includesMatter: Bool = false) {
        resolver = BookResolver(library: bookRepository, source: sourceRepository, includesMatter: includesMatter)
    }

    public func execute(reference: String) async throws(BookError) -> LibraryBook {
        try await resolver.resolve(reference).book
    }
}
