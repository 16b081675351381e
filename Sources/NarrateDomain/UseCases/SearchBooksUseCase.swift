/// Books whose title, authors or text match a query, best first, with the matching pages.
public protocol SearchBooksUseCaseContract: Sendable {
    /// - Parameters:
    ///   - query: the words to find; a blank query finds nothing.
    ///   - hitsPerBook: the most matching places to give per book (at least 1), or `nil` for
    ///     every one. Each result's `bookMatchCount` says how many there are in all.
    func execute(query: String, hitsPerBook: Int?) async throws(BookError) -> [BookSearchResult]
}

/// Full-text search of the library's titles, authors and pages.
public struct SearchBooksUseCase: SearchBooksUseCaseContract {
    private let repository: any BookRepositoryContract

    public init(repository: any BookRepositoryContract) {
        self.repository = repository
    }

    public func execute(query: String, hitsPerBook: Int?) async throws(BookError) -> [BookSearchResult] {
        let trimmed = query.trimmingWhitespace
        guard !trimmed.isEmpty else { return [] }
        return try await repository.searchBooks(query: trimmed, hitsPerBook: hitsPerBook.map { max(1, $0) })
    }
}
