import Testing

@testable import NarrateDomain

@Suite struct GetBookDetailUseCaseTests {
    static let emma = LibraryBook.stub(id: 1, title: "Emma")
    static let emmaVolumeTwo = LibraryBook.stub(id: 2, title: "Emma, Volume II")
    static let moby = LibraryBook.stub(id: 3, title: "Moby-Dick; or, The Whale")
    static let mansfield = LibraryBook.stub(id: 4, title: "Mansfield Park")
    static let mrSmith = LibraryBook.stub(id: 5, title: "Mr. Smith Goes to Town")
    static let library = [emma, emmaVolumeTwo, moby, mansfield, mrSmith]

    let bookRepositoryMock: BookRepositoryMock
    let sourceRepositoryMock: BookSourceRepositoryMock
    let sut: GetBookDetailUseCase

    init() {
        bookRepositoryMock = BookRepositoryMock()
        bookRepositoryMock.library = Self.library
        sourceRepositoryMock = BookSourceRepositoryMock()
        sut = GetBookDetailUseCase(bookRepository: bookRepositoryMock, sourceRepository: sourceRepositoryMock)
    }

    // MARK: - Paths

    @Test("A reference with a slash or a document extension is a file: it is imported", arguments: ["/books/emma.txt", "books/Emma", "emma.epub", "Notes.MD"])
    func pathIsImported(reference: String) async throws {
        // Given
        let saved = LibraryBook.stub(id: 9, sourcePath: reference)
        sourceRepositoryMock.contentHashResult = .success("cafe")
        bookRepositoryMock.getBookByHashResult = .success(nil)
        sourceRepositoryMock.result = .success(.stub())
        bookRepositoryMock.saveBookResult = .success(saved)

        // When
        let book = try await sut.execute(reference: reference)

        // Then
        #expect(book == saved)
        #expect(sourceRepositoryMock.lastHashedPath == reference)
        #expect(bookRepositoryMock.lastSaveCall?.sourcePath == reference)
        #expect(bookRepositoryMock.getBookTitlesCallCount == 0)
        #expect(bookRepositoryMock.getBookByIDCallCount == 0)
    }

    @Test("A file already imported is found by its content, not imported again")
    func knownPathIsFoundByHash() async throws {
        // Given
        sourceRepositoryMock.contentHashResult = .success("cafe")
        bookRepositoryMock.getBookByHashResult = .success(Self.moby)

        // When
        let book = try await sut.execute(reference: "/elsewhere/moby.txt")

        // Then
        #expect(book == Self.moby)
        #expect(bookRepositoryMock.lastRequestedHash == "cafe")
        #expect(sourceRepositoryMock.bookCallCount == 0)
        #expect(bookRepositoryMock.saveBookCallCount == 0)
    }

    // MARK: - Library ids

    @Test("A number is a library id")
    func numberIsLibraryID() async throws {
        // Given
        bookRepositoryMock.getBookByIDResult = .success(Self.moby)

        // When
        let book = try await sut.execute(reference: " 3 ")

        // Then
        #expect(book == Self.moby)
        #expect(bookRepositoryMock.getBookByIDCallCount == 1)
        #expect(bookRepositoryMock.lastRequestedID == BookID(rawValue: 3))
        #expect(bookRepositoryMock.getBookTitlesCallCount == 0)
        #expect(sourceRepositoryMock.contentHashCallCount == 0)
    }

    @Test("An id that is not in the library throws bookNotFound")
    func unknownIDThrows() async throws {
        // Given
        bookRepositoryMock.getBookByIDResult = .success(nil)

        // When / Then
        await #expect(throws: BookError.bookNotFound(reference: "42")) {
            _ = try await sut.execute(reference: "42")
        }
    }

    // MARK: - Titles

    @Test("A title prefix that only one book starts with gives that book, ignoring case")
    func uniquePrefixGivesBook() async throws {
        // When
        let moby = try await sut.execute(reference: "moby")
        let mansfield = try await sut.execute(reference: "MANSFIELD p")

        // Then
        #expect(moby == Self.moby)
        #expect(mansfield == Self.mansfield)
        // Titles are matched without reading books; only the one found is read.
        #expect(bookRepositoryMock.getBookTitlesCallCount == 2)
        #expect(bookRepositoryMock.getAllBooksCallCount == 0)
        #expect(bookRepositoryMock.requestedIDs == [Self.moby.id, Self.mansfield.id])
        #expect(sourceRepositoryMock.contentHashCallCount == 0)
    }

    @Test("An exact title wins over the longer titles it is a prefix of")
    func exactTitleWins() async throws {
        // When
        let book = try await sut.execute(reference: "emma")

        // Then
        #expect(book == Self.emma)
    }

    @Test("A title with a dot but no document extension is a title, not a path")
    func dottedTitleIsTitle() async throws {
        // When
        let book = try await sut.execute(reference: "Mr. Smith")

        // Then
        #expect(book == Self.mrSmith)
        #expect(sourceRepositoryMock.contentHashCallCount == 0)
    }

    @Test("A title no book starts with throws bookNotFound")
    func unknownTitleThrows() async throws {
        // When / Then
        await #expect(throws: BookError.bookNotFound(reference: "Persuasion")) {
            _ = try await sut.execute(reference: "Persuasion")
        }
    }

    @Test("A prefix of several titles throws ambiguousBook listing each as id: title")
    func ambiguousPrefixThrows() async throws {
        // When / Then
        await #expect(throws: BookError.ambiguousBook(reference: "M", matches: ["3: Moby-Dick; or, The Whale", "4: Mansfield Park", "5: Mr. Smith Goes to Town"])) {
            _ = try await sut.execute(reference: "M")
        }
    }

    @Test("A blank reference throws bookNotFound without asking the library")
    func blankReferenceThrows() async throws {
        // When / Then
        await #expect(throws: BookError.bookNotFound(reference: "  ")) {
            _ = try await sut.execute(reference: "  ")
        }
        #expect(bookRepositoryMock.getBookTitlesCallCount == 0)
        #expect(bookRepositoryMock.getBookByIDCallCount == 0)
    }

    @Test("A library error propagates")
    func libraryErrorPropagates() async throws {
        // Given
        bookRepositoryMock.getBookTitlesFailure = .libraryFailed(reason: "locked")

        // When / Then
        await #expect(throws: BookError.libraryFailed(reason: "locked")) {
            _ = try await sut.execute(reference: "Emma")
        }
    }

    // MARK: - Parser generations and --include-matter

    @Test("A book read by older parsers is read again from its unchanged file and saved")
    func staleBookIsReread() async throws {
        // Given a stored book of parser generation 0 and parsers of generation 2
        sourceRepositoryMock.parserVersion = 2
        sourceRepositoryMock.contentHashResult = .success(Self.emma.contentHash)
        var fresh = Book.stub(pages: [.stub(index: 1, text: "Without the licence.")])
        fresh.parserVersion = 2
        sourceRepositoryMock.result = .success(fresh)
        bookRepositoryMock.getBookByIDResult = .success(Self.emma)
        bookRepositoryMock.updateBookResult = .success(())

        // When
        let book = try await sut.execute(reference: "1")

        // Then
        #expect(book.book == fresh)
        #expect(book.id == Self.emma.id)
        #expect(bookRepositoryMock.updateBookCallCount == 1)
        #expect(sourceRepositoryMock.lastHashedPath == Self.emma.sourcePath)
    }

    @Test("A stale book whose file is gone or changed is served as stored")
    func staleBookWithoutItsFile() async throws {
        // Given
        sourceRepositoryMock.parserVersion = 2
        sourceRepositoryMock.contentHashResult = .failure(.fileNotFound(path: Self.emma.sourcePath))
        bookRepositoryMock.getBookByIDResult = .success(Self.emma)

        // When
        let book = try await sut.execute(reference: "1")

        // Then
        #expect(book == Self.emma)
        #expect(sourceRepositoryMock.bookCallCount == 0)
        #expect(bookRepositoryMock.updateBookCallCount == 0)
    }

    @Test("--include-matter parses the unchanged file again with everything, and saves nothing")
    func includeMatter() async throws {
        // Given
        let sut = GetBookDetailUseCase(bookRepository: bookRepositoryMock, sourceRepository: sourceRepositoryMock, includesMatter: true)
        sourceRepositoryMock.contentHashResult = .success(Self.emma.contentHash)
        let everything = Book.stub(pages: [.stub(index: 1, text: "The licence."), .stub(index: 2)])
        sourceRepositoryMock.result = .success(everything)
        bookRepositoryMock.getBookByIDResult = .success(Self.emma)

        // When
        let book = try await sut.execute(reference: "1")

        // Then
        #expect(book.book == everything)
        #expect(sourceRepositoryMock.matterRequests == [true])
        #expect(bookRepositoryMock.updateBookCallCount == 0)
    }

    @Test("--include-matter on a book whose file changed fails in one line naming the file")
    func includeMatterNeedsTheFile() async throws {
        // Given
        let sut = GetBookDetailUseCase(bookRepository: bookRepositoryMock, sourceRepository: sourceRepositoryMock, includesMatter: true)
        sourceRepositoryMock.contentHashResult = .success("another-hash")
        bookRepositoryMock.getBookByIDResult = .success(Self.emma)

        // When / Then
        let error = await #expect(throws: BookError.self) { try await sut.execute(reference: "1") }
        guard case let .unreadable(path, reason) = error else {
            Issue.record("expected .unreadable, got \(String(describing: error))")
            return
        }
        #expect(path == Self.emma.sourcePath)
        #expect(reason.contains("add the book again"))
        #expect(sourceRepositoryMock.bookCallCount == 0)
    }
}
