import struct Foundation.Date
import Testing

@testable import NarrateDomain

@Suite struct RemoveBookmarkUseCaseTests {
    static let book = LibraryBook.stub(id: 4, title: "Eighty Days", pages: [.stub(index: 1)])
    static let bookmark = Bookmark(id: BookmarkID(rawValue: 7), bookID: BookID(rawValue: 4), pageIndex: 1, textOffset: 0, note: nil, createdAt: Date(timeIntervalSince1970: 10))

    let booksMock = GetBookDetailUseCaseMock()
    let repositoryMock = BookmarkRepositoryMock()
    let sut: RemoveBookmarkUseCase

    init() {
        booksMock.result = .success(Self.book)
        sut = RemoveBookmarkUseCase(books: booksMock, repository: repositoryMock)
    }

    @Test("Removes the bookmark of the book the reference names and returns it")
    func removes() async throws {
        // Given
        repositoryMock.removeBookmarkResult = .success(Self.bookmark)

        // When
        let (book, removed) = try await sut.execute(reference: "eighty", id: BookmarkID(rawValue: 7))

        // Then
        #expect(book == Self.book)
        #expect(removed == Self.bookmark)
        #expect(repositoryMock.removeCalls == [.init(id: BookmarkID(rawValue: 7), bookID: BookID(rawValue: 4))])
    }

    @Test("A bookmark the book does not have throws bookmarkNotFound naming the book")
    func unknownBookmark() async throws {
        // Given
        repositoryMock.removeBookmarkResult = .success(nil)

        // When / Then
        await #expect(throws: BookmarkError.bookmarkNotFound(id: "12", title: "Eighty Days")) {
            _ = try await sut.execute(reference: "4", id: BookmarkID(rawValue: 12))
        }
    }

    @Test("The book's and the library's errors propagate as .book")
    func errorsPropagate() async throws {
        // Given a library that fails
        repositoryMock.removeBookmarkResult = .failure(.libraryFailed(reason: "read-only"))
        await #expect(throws: BookmarkError.book(.libraryFailed(reason: "read-only"))) {
            _ = try await sut.execute(reference: "4", id: BookmarkID(rawValue: 7))
        }
        // Given a book that cannot be found: the repository is not asked
        booksMock.result = .failure(.ambiguousBook(reference: "e", matches: ["Emma", "Eighty Days"]))
        await #expect(throws: BookmarkError.book(.ambiguousBook(reference: "e", matches: ["Emma", "Eighty Days"]))) {
            _ = try await sut.execute(reference: "e", id: BookmarkID(rawValue: 7))
        }
        #expect(repositoryMock.removeCalls.count == 1)
    }
}
