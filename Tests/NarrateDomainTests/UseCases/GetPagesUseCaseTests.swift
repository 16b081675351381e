import Testing

@testable import NarrateDomain

@Suite struct GetPagesUseCaseTests {
    let repositoryMock: BookSourceRepositoryMock
    let sut: GetPagesUseCase

    init() {
        repositoryMock = BookSourceRepositoryMock()
        sut = GetPagesUseCase(repository: repositoryMock)
    }

    @Test("Returns the book the repository reads at the path")
    func returnsBook() async throws {
        // Given
        let book = Book.stub(pages: [.stub(index: 1), .stub(index: 2, label: "ii")])
        repositoryMock.result = .success(book)

        // When
        let value = try await sut.execute(bookPath: "/books/a.txt")

        // Then
        #expect(value == book)
        #expect(repositoryMock.bookCallCount == 1)
        #expect(repositoryMock.lastRequestedPath == "/books/a.txt")
    }

    @Test("Propagates the repository's error")
    func propagatesError() async throws {
        // Given
        repositoryMock.result = .failure(.noText(path: "/books/empty.txt"))

        // When / Then
        await #expect(throws: BookError.noText(path: "/books/empty.txt")) {
            _ = try await sut.execute(bookPath: "/books/empty.txt")
        }
    }
}
