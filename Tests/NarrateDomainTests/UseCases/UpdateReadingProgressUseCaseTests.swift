import struct Foundation.Date
import Testing

@testable import NarrateDomain

@Suite struct UpdateReadingProgressUseCaseTests {
    static let now = Date(timeIntervalSince1970: 1_750_000_000)
    static let book = LibraryBook.stub(id: 6, pages: [.stub(index: 1), .stub(index: 2), .stub(index: 3)])

    let repositoryMock: BookRepositoryMock
    let sut: UpdateReadingProgressUseCase

    init() {
        repositoryMock = BookRepositoryMock()
        repositoryMock.updateProgressResult = .success(())
        sut = UpdateReadingProgressUseCase(repository: repositoryMock, clock: { Self.now })
    }

    @Test("Saves the page index with the injected clock's time and returns it", arguments: [1, 2, 3])
    func savesProgress(pageIndex: Int) async throws {
        // When
        let progress = try await sut.execute(book: Self.book, pageIndex: pageIndex)

        // Then
        let expected = ReadingProgress(pageIndex: pageIndex, updatedAt: Self.now)
        #expect(progress == expected)
        #expect(repositoryMock.updateProgressCallCount == 1)
        #expect(repositoryMock.lastProgressCall == .init(bookID: BookID(rawValue: 6), progress: expected))
    }

    @Test("An index outside the book throws pageNotFound and saves nothing", arguments: [0, -1, 4])
    func indexOutOfRangeThrows(pageIndex: Int) async throws {
        // When / Then
        await #expect(throws: BookError.pageNotFound(page: String(pageIndex), pageCount: 3)) {
            _ = try await sut.execute(book: Self.book, pageIndex: pageIndex)
        }
        #expect(repositoryMock.updateProgressCallCount == 0)
    }

    @Test("A book without pages throws pageNotFound and saves nothing")
    func emptyBookThrows() async throws {
        // Given
        let empty = LibraryBook.stub(id: 6, pages: [])

        // When / Then
        await #expect(throws: BookError.pageNotFound(page: "1", pageCount: 0)) {
            _ = try await sut.execute(book: empty, pageIndex: 1)
        }
        #expect(repositoryMock.updateProgressCallCount == 0)
    }

    @Test("A repository error propagates")
    func repositoryErrorPropagates() async throws {
        // Given
        repositoryMock.updateProgressResult = .failure(.bookNotFound(reference: "6"))

        // When / Then
        await #expect(throws: BookError.bookNotFound(reference: "6")) {
            _ = try await sut.execute(book: Self.book, pageIndex: 2)
        }
    }
}
