import struct Foundation.Date
import Testing

@testable import NarrateDomain

@Suite struct GetBookmarksUseCaseTests {
    static let book = LibraryBook.stub(id: 4, title: "Eighty Days", pages: [.stub(index: 1), .stub(index: 2)])
    static let bookmarks = [
        Bookmark(id: BookmarkID(rawValue: 2), bookID: BookID(rawValue: 4), pageIndex: 1, textOffset: 5, note: nil, createdAt: Date(timeIntervalSince1970: 10)),
        Bookmark(id: BookmarkID(rawValue: 1), bookID: BookID(rawValue: 4), pageIndex: 2, textOffset: 0, note: "here", createdAt: Date(timeIntervalSince1970: 5)),
    ]

    let booksMock = GetBookDetailUseCaseMock()
    let repositoryMock = BookmarkRepositoryMock()
    let sut: GetBookmarksUseCase

    init() {
        sut = GetBookmarksUseCase(books: booksMock, repository: repositoryMock)
    }

    @Test("Gives the book the reference names and its bookmarks, as the repository orders them")
    func listsBookmarks() async throws {
        // Given
        booksMock.result = .success(Self.book)
        repositoryMock.getBookmarksResult = .success(Self.bookmarks)

        // When
        let (book, bookmarks) = try await sut.execute(reference: "eighty")

        // Then
        #expect(book == Self.book)
        #expect(bookmarks == Self.bookmarks)
        #expect(booksMock.references == ["eighty"])
        #expect(repositoryMock.listedBooks == [BookID(rawValue: 4)])
    }

    @Test("A book that cannot be found throws .book and asks the repository nothing")
    func unknownBook() async throws {
        // Given
        booksMock.result = .failure(.bookNotFound(reference: "nothing"))

        // When / Then
        await #expect(throws: BookmarkError.book(.bookNotFound(reference: "nothing"))) {
            _ = try await sut.execute(reference: "nothing")
        }
        #expect(repositoryMock.listedBooks.isEmpty)
    }

    @Test("A library failure propagates as .book")
    func libraryFailure() async throws {
        // Given
        booksMock.result = .success(Self.book)
        repositoryMock.getBookmarksResult = .failure(.libraryFailed(reason: "locked"))

        // When / Then
        await #expect(throws: BookmarkError.book(.libraryFailed(reason: "locked"))) {
            _ = try await sut.execute(reference: "4")
        }
    }
}
