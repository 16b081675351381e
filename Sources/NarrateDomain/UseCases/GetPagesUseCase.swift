/// The pages of a book, in reading order.
public protocol GetPagesUseCaseContract: Sendable {
    func execute(bookPath: String) async throws(BookError) -> Book
}

public struct GetPagesUseCase: GetPagesUseCaseContract {
    private let repository: any BookSourceRepositoryContract

    public init(repository: any BookSourceRepositoryContract) {
        self.repository = repository
    }

    public func execute(bookPath: String) async throws(BookError) -> Book {
        try await repository.book(at: bookPath)
    }
}
