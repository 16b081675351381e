import Testing

@testable import NarrateDomain

@Suite struct SearchBooksUseCaseTests {
    let repositoryMock: BookRepositoryMock
    let sut: SearchBooksUseCase

    init() {
        repositoryMock = BookRepositoryMock()
        sut = SearchBooksUseCase(repository: repositoryMock)
    }

    @Test("Returns the repository's results for the trimmed query")
    func returnsResults() async throws {
        // Given
        let results = [BookSearchResult(bookID: BookID(rawValue: 3), title: "Moby-Dick", authors: ["Herman Melville"], pageIndex: 12, snippet: "…the white whale…")]
        repositoryMock.searchBooksResult = .success(results)

        // When
        let value = try await sut.execute(query: "  white whale \n", hitsPerBook: 3)

        // Then
        #expect(value == results)
        #expect(repositoryMock.searchBooksCallCount == 1)
        #expect(repositoryMock.lastSearchQuery == "white whale")
        #expect(repositoryMock.lastSearchHitsPerBook == .some(3))
    }

    @Test("Asks for every hit when no limit is given, and for at least one when the limit is below one")
    func hitsPerBookIsPassedOn() async throws {
        // Given
        repositoryMock.searchBooksResult = .success([])

        // When
        _ = try await sut.execute(query: "whale", hitsPerBook: nil)
        let unlimited = repositoryMock.lastSearchHitsPerBook
        _ = try await sut.execute(query: "whale", hitsPerBook: 0)

        // Then
        #expect(unlimited == .some(nil))
        #expect(repositoryMock.lastSearchHitsPerBook == .some(1))
    }

    @Test("A blank query gives no results without asking the repository", arguments: ["", "   ", "\n\t"])
    func blankQueryGivesNothing(query: String) async throws {
        // When
        let value = try await sut.execute(query: query, hitsPerBook: 3)

        // Then
        #expect(value.isEmpty)
        #expect(repositoryMock.searchBooksCallCount == 0)
    }

    @Test("Propagates the repository's error")
    func propagatesError() async throws {
        // Given
        repositoryMock.searchBooksResult = .failure(.libraryFailed(reason: "no index"))

        // When / Then
        await #expect(throws: BookError.libraryFailed(reason: "no index")) {
            _ = try await sut.execute(query: "whale", hitsPerBook: 3)
        }
    }
}
