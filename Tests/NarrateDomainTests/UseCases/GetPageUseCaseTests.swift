import Testing

@testable import NarrateDomain

@Suite struct GetPageUseCaseTests {
    static let pages = [
        Page.stub(index: 1, label: "i", text: "Preface."),
        Page.stub(index: 2, label: "ii", text: "Contents."),
        Page.stub(index: 3, label: "1", text: "Call me Ishmael."),
        Page.stub(index: 4, label: "2", text: "Some years ago."),
    ]
    static let book = LibraryBook.stub(id: 3, title: "Moby-Dick", pages: pages)

    let bookRepositoryMock: BookRepositoryMock
    let sourceRepositoryMock: BookSourceRepositoryMock
    let sut: GetPageUseCase

    init() {
        bookRepositoryMock = BookRepositoryMock()
        bookRepositoryMock.library = [Self.book]
        sourceRepositoryMock = BookSourceRepositoryMock()
        sut = GetPageUseCase(bookRepository: bookRepositoryMock, sourceRepository: sourceRepositoryMock)
    }

    @Test("A page is found by its printed label first", arguments: [("ii", 2), ("II", 2), ("2", 4), ("1", 3)])
    func findsPageByLabel(reference: String, expectedIndex: Int) async throws {
        // When
        let (book, page) = try await sut.execute(reference: "Moby", page: reference)

        // Then
        #expect(book == Self.book)
        #expect(page == Self.pages[expectedIndex - 1])
    }

    @Test("A page is found by its index when no label matches, and by #index always", arguments: [("3", 3), ("#1", 1), ("#2", 2), (" #4 ", 4)])
    func findsPageByIndex(reference: String, expectedIndex: Int) async throws {
        // When
        let (_, page) = try await sut.execute(reference: "Moby", page: reference)

        // Then
        #expect(page == Self.pages[expectedIndex - 1])
    }

    @Test("A page the book does not have throws pageNotFound with the page count", arguments: ["5", "#0", "#5", "xiv", ""])
    func missingPageThrows(reference: String) async throws {
        // When / Then
        await #expect(throws: BookError.pageNotFound(page: reference, pageCount: 4)) {
            _ = try await sut.execute(reference: "Moby", page: reference)
        }
    }

    @Test("A book lookup error propagates")
    func lookupErrorPropagates() async throws {
        // When / Then
        await #expect(throws: BookError.bookNotFound(reference: "Emma")) {
            _ = try await sut.execute(reference: "Emma", page: "1")
        }
    }
}
