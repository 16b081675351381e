/// Every book in the library, newest first.
public protocol GetBooksUseCaseContract: Sendable {
    func execute() async throws(BookError) -> [LibraryBook]
}

/// Lists the library, newest first.
public struct GetBooksUseCase: GetBooksUseCaseContract {
    private let repository: any BookRepositoryContract

    public init(repository: any BookRepositoryContract) {
        self.repository = repository
    }

    public func execute() async throws(BookError) -> [LibraryBook] {
        try await repository.getAllBooks()
    }
}
