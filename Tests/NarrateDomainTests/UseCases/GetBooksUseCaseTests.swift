import Testing

@testable import NarrateDomain

@Suite struct GetBooksUseCaseTests {
    let repositoryMock: BookRepositoryMock
    let sut: GetBooksUseCase

    init() {
        repositoryMock = BookRepositoryMock()
        sut = GetBooksUseCase(repository: repositoryMock)
    }

    @Test("Returns the library's books in the repository's order")
    func returnsBooks() async throws {
        // Given
        let books = [LibraryBook.stub(id: 2, title: "Newer"), LibraryBook.stub(id: 1, title: "Older")]
        repositoryMock.getAllBooksResult = .success(books)

        // When
        let value = try await sut.execute()

        // Then
        #expect(value == books)
        #expect(repositoryMock.getAllBooksCallCount == 1)
    }

    @Test("Propagates the repository's error")
    func propagatesError() async throws {
        // Given
        repositoryMock.getAllBooksResult = .failure(.libraryFailed(reason: "locked"))

        // When / Then
        await #expect(throws: BookError.libraryFailed(reason: "locked")) {
            _ = try await sut.execute()
        }
    }
}
