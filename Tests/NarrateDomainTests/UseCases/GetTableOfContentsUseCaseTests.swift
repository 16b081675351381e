import Testing

@testable import NarrateDomain

@Suite struct GetTableOfContentsUseCaseTests {
    static let pages = [
        Page.stub(index: 1, label: "i"),
        Page.stub(index: 2, label: "ii"),
        Page.stub(index: 3, label: "1"),
        Page.stub(index: 4, label: "2"),
        Page.stub(index: 5, label: "3"),
    ]

    let bookRepositoryMock: BookRepositoryMock
    let sourceRepositoryMock: BookSourceRepositoryMock
    let sut: GetTableOfContentsUseCase

    init() {
        bookRepositoryMock = BookRepositoryMock()
        sourceRepositoryMock = BookSourceRepositoryMock()
        sut = GetTableOfContentsUseCase(bookRepository: bookRepositoryMock, sourceRepository: sourceRepositoryMock)
    }

    @Test("Each entry carries its chapter's title, depth, first page index and that page's label")
    func entriesCarryFirstPageLabels() async throws {
        // Given
        let chapters = [
            Chapter(title: "Preface", firstPage: 1),
            Chapter(title: "Part One", firstPage: 3),
            Chapter(title: "Chapter 1", depth: 1, firstPage: 3),
            Chapter(title: "Chapter 2", depth: 1, firstPage: 5),
        ]
        let book = LibraryBook.stub(id: 4, pages: Self.pages, chapters: chapters)
        bookRepositoryMock.getBookByIDResult = .success(book)

        // When
        let (found, entries) = try await sut.execute(reference: "4")

        // Then
        #expect(found == book)
        #expect(entries == [
            TableOfContentsEntry(title: "Preface", depth: 0, pageIndex: 1, pageLabel: "i"),
            TableOfContentsEntry(title: "Part One", depth: 0, pageIndex: 3, pageLabel: "1"),
            TableOfContentsEntry(title: "Chapter 1", depth: 1, pageIndex: 3, pageLabel: "1"),
            TableOfContentsEntry(title: "Chapter 2", depth: 1, pageIndex: 5, pageLabel: "3"),
        ])
    }

    @Test("An entry whose first page is outside the book is labelled with its index")
    func entryOutsideBookUsesIndex() async throws {
        // Given
        let book = LibraryBook.stub(id: 4, pages: Self.pages, chapters: [Chapter(title: "Notes", firstPage: 9)])
        bookRepositoryMock.getBookByIDResult = .success(book)

        // When
        let (_, entries) = try await sut.execute(reference: "4")

        // Then
        #expect(entries == [TableOfContentsEntry(title: "Notes", depth: 0, pageIndex: 9, pageLabel: "9")])
    }

    @Test("A book without chapters has an empty table of contents")
    func noChaptersGivesNoEntries() async throws {
        // Given
        bookRepositoryMock.getBookByIDResult = .success(.stub(id: 4, pages: Self.pages))

        // When
        let (_, entries) = try await sut.execute(reference: "4")

        // Then
        #expect(entries.isEmpty)
    }

    @Test("A book lookup error propagates")
    func lookupErrorPropagates() async throws {
        // Given
        bookRepositoryMock.getBookByIDResult = .success(nil)

        // When / Then
        await #expect(throws: BookError.bookNotFound(reference: "4")) {
            _ = try await sut.execute(reference: "4")
        }
    }
}
