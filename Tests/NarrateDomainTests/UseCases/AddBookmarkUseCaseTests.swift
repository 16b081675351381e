import struct Foundation.Date
import Testing

@testable import NarrateDomain

@Suite struct AddBookmarkUseCaseTests {
    static let now = Date(timeIntervalSince1970: 1_750_000_000)
    static let pages = [Page.stub(index: 1, label: "i"), Page.stub(index: 2, label: "ii", text: "Phileas Fogg lived at No. 7, Saville Row.")]
    static let book = LibraryBook.stub(id: 4, title: "Eighty Days", pages: pages)

    let booksMock = GetBookDetailUseCaseMock()
    let repositoryMock = BookmarkRepositoryMock()
    let sut: AddBookmarkUseCase

    init() {
        booksMock.result = .success(Self.book)
        repositoryMock.getBookmarksResult = .success([])
        sut = AddBookmarkUseCase(books: booksMock, repository: repositoryMock, clock: { Self.now })
    }

    static func saved(_ id: Int64 = 9, page: Int = 2, offset: Int = 13, note: String? = "the wager") -> Bookmark {
        Bookmark(id: BookmarkID(rawValue: id), bookID: BookID(rawValue: 4), pageIndex: page, textOffset: offset, note: note, createdAt: now)
    }

    @Test("Saves the page's index, the place, the trimmed note and the clock's time, and returns what was saved")
    func savesBookmark() async throws {
        // Given
        repositoryMock.addBookmarkResult = .success(Self.saved())

        // When
        let (book, bookmark) = try await sut.execute(reference: "eighty", page: "ii", textOffset: 13, note: "  the wager \n")

        // Then
        #expect(book == Self.book)
        #expect(bookmark == Self.saved())
        #expect(booksMock.references == ["eighty"])
        #expect(repositoryMock.addCalls == [.init(bookID: BookID(rawValue: 4), pageIndex: 2, textOffset: 13, note: "the wager", createdAt: Self.now)])
    }

    @Test("A blank note is no note, and #N names a page by its index", arguments: [nil, "", "   \n "])
    func blankNote(note: String?) async throws {
        // Given
        repositoryMock.addBookmarkResult = .success(Self.saved(note: nil))

        // When
        _ = try await sut.execute(reference: "4", page: "#2", textOffset: 0, note: note)

        // Then
        #expect(repositoryMock.addCalls.map(\.note) == [nil])
        #expect(repositoryMock.addCalls.map(\.pageIndex) == [2])
    }

    @Test("A page the book does not have throws pageNotFound and saves nothing")
    func unknownPage() async throws {
        await #expect(throws: BookmarkError.book(.pageNotFound(page: "40", pageCount: 2))) {
            _ = try await sut.execute(reference: "4", page: "40", textOffset: 0, note: nil)
        }
        #expect(repositoryMock.addCalls.isEmpty)
    }

    @Test("A place outside the page's text throws offsetOutsidePage and saves nothing", arguments: [-1, 42])
    func placeOutsidePage(offset: Int) async throws {
        // The page's text is 41 UTF-16 units long: 0 to 41 are places on it.
        await #expect(throws: BookmarkError.offsetOutsidePage(offset: offset, page: "ii", length: 41)) {
            _ = try await sut.execute(reference: "4", page: "2", textOffset: offset, note: nil)
        }
        #expect(repositoryMock.addCalls.isEmpty)
    }

    @Test("A note over the limit throws noteTooLong before the book is looked up")
    func noteTooLong() async throws {
        await #expect(throws: BookmarkError.noteTooLong(length: 1_001, limit: 1_000)) {
            _ = try await sut.execute(reference: "4", page: "2", textOffset: 0, note: String(repeating: "é", count: 1_001))
        }
        #expect(booksMock.references.isEmpty)
        #expect(repositoryMock.addCalls.isEmpty)
    }

    @Test("A book with the most bookmarks takes no more")
    func tooMany() async throws {
        // Given
        repositoryMock.getBookmarksResult = .success((1...1_000).map { Self.saved(Int64($0)) })

        // When / Then
        await #expect(throws: BookmarkError.tooManyBookmarks(title: "Eighty Days", limit: 1_000)) {
            _ = try await sut.execute(reference: "4", page: "2", textOffset: 0, note: nil)
        }
        #expect(repositoryMock.addCalls.isEmpty)
    }

    @Test("The book's and the library's errors propagate as .book")
    func errorsPropagate() async throws {
        // Given a book that cannot be found
        booksMock.result = .failure(.bookNotFound(reference: "nothing"))
        await #expect(throws: BookmarkError.book(.bookNotFound(reference: "nothing"))) {
            _ = try await sut.execute(reference: "nothing", page: "1", textOffset: 0, note: nil)
        }
        // Given a library that fails to save
        booksMock.result = .success(Self.book)
        repositoryMock.addBookmarkResult = .failure(.libraryFailed(reason: "disk full"))
        await #expect(throws: BookmarkError.book(.libraryFailed(reason: "disk full"))) {
            _ = try await sut.execute(reference: "4", page: "1", textOffset: 0, note: nil)
        }
    }
}
