import Testing

@testable import NarrateDomain

@Suite struct GetPagesUseCaseTests {
    let bookRepositoryMock: BookRepositoryMock
    let sourceRepositoryMock: BookSourceRepositoryMock
    let sut: GetPagesUseCase

    init() {
        bookRepositoryMock = BookRepositoryMock()
        sourceRepositoryMock = BookSourceRepositoryMock()
        sut = GetPagesUseCase(bookRepository: bookRepositoryMock, sourceRepository: sourceRepositoryMock)
    }

    @Test("A file not in the library is parsed, saved, and returned with its pages")
    func importsNewFile() async throws {
        // Given
        let book = Book.stub(pages: [.stub(index: 1), .stub(index: 2, label: "ii")])
        let saved = LibraryBook.stub(id: 7, pages: book.pages, contentHash: "abc", sourcePath: "/books/a.txt")
        sourceRepositoryMock.contentHashResult = .success("abc")
        sourceRepositoryMock.result = .success(book)
        bookRepositoryMock.getBookByHashResult = .success(nil)
        bookRepositoryMock.saveBookResult = .success(saved)

        // When
        let value = try await sut.execute(reference: "/books/a.txt")

        // Then
        #expect(value == saved)
        #expect(sourceRepositoryMock.lastHashedPath == "/books/a.txt")
        #expect(sourceRepositoryMock.lastRequestedPath == "/books/a.txt")
        #expect(bookRepositoryMock.lastSaveCall == .init(book: book, contentHash: "abc", sourcePath: "/books/a.txt"))
    }

    @Test("A file already in the library is returned from it without parsing")
    func returnsKnownFile() async throws {
        // Given
        let existing = LibraryBook.stub(id: 3, contentHash: "abc")
        sourceRepositoryMock.contentHashResult = .success("abc")
        bookRepositoryMock.getBookByHashResult = .success(existing)

        // When
        let value = try await sut.execute(reference: "/books/a.txt")

        // Then
        #expect(value == existing)
        #expect(sourceRepositoryMock.bookCallCount == 0)
        #expect(bookRepositoryMock.saveBookCallCount == 0)
    }

    @Test("A library id returns that book")
    func returnsBookByID() async throws {
        // Given
        let existing = LibraryBook.stub(id: 12)
        bookRepositoryMock.getBookByIDResult = .success(existing)

        // When
        let value = try await sut.execute(reference: "12")

        // Then
        #expect(value == existing)
        #expect(bookRepositoryMock.lastRequestedID == BookID(rawValue: 12))
        #expect(sourceRepositoryMock.contentHashCallCount == 0)
    }

    @Test("Propagates the source repository's error")
    func propagatesError() async throws {
        // Given
        sourceRepositoryMock.contentHashResult = .success("abc")
        bookRepositoryMock.getBookByHashResult = .success(nil)
        sourceRepositoryMock.result = .failure(.noText(path: "/books/empty.txt"))

        // When / Then
        await #expect(throws: BookError.noText(path: "/books/empty.txt")) {
            _ = try await sut.execute(reference: "/books/empty.txt")
        }
        #expect(bookRepositoryMock.saveBookCallCount == 0)
    }
}
