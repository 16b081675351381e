/// Books whose title, authors or text match a query, best first, with the matching page.
public protocol SearchBooksUseCaseContract: Sendable {
    func execute(query: String) async throws(BookError) -> [BookSearchResult]
}

/// Full-text search of the library's titles, authors and pages.
public struct SearchBooksUseCase: SearchBooksUseCaseContract {
    private let repository: any BookRepositoryContract

    public init(repository: any BookRepositoryContract) {
        self.repository = repository
    }

    public func execute(query: String) async throws(BookError) -> [BookSearchResult] {
        let trimmed = query.trimmingWhitespace
        guard !trimmed.isEmpty else { return [] }
        return try await repository.searchBooks(query: trimmed)
    }
}
