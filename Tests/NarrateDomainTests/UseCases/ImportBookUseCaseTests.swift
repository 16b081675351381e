import Testing

@testable import NarrateDomain

@Suite struct ImportBookUseCaseTests {
    static let path = "/books/moby-dick.epub"
    static let parsed = Book.stub(pages: [.stub(index: 1), .stub(index: 2)])
    static let saved = LibraryBook.stub(id: 5, pages: parsed.pages, contentHash: "feedface", sourcePath: path)

    let bookRepositoryMock: BookRepositoryMock
    let sourceRepositoryMock: BookSourceRepositoryMock
    let sut: ImportBookUseCase

    init() {
        bookRepositoryMock = BookRepositoryMock()
        sourceRepositoryMock = BookSourceRepositoryMock()
        sut = ImportBookUseCase(bookRepository: bookRepositoryMock, sourceRepository: sourceRepositoryMock)
    }

    @Test("A new file is hashed, parsed, and saved with its hash and path")
    func importsNewFile() async throws {
        // Given
        sourceRepositoryMock.contentHashResult = .success("feedface")
        bookRepositoryMock.getBookByHashResult = .success(nil)
        sourceRepositoryMock.result = .success(Self.parsed)
        bookRepositoryMock.saveBookResult = .success(Self.saved)

        // When
        let (book, existed) = try await sut.execute(path: Self.path)

        // Then
        #expect(book == Self.saved)
        #expect(!existed)
        #expect(sourceRepositoryMock.lastHashedPath == Self.path)
        #expect(bookRepositoryMock.lastRequestedHash == "feedface")
        #expect(sourceRepositoryMock.bookCallCount == 1)
        #expect(sourceRepositoryMock.lastRequestedPath == Self.path)
        #expect(bookRepositoryMock.saveBookCallCount == 1)
        #expect(bookRepositoryMock.lastSaveCall == .init(book: Self.parsed, contentHash: "feedface", sourcePath: Self.path))
    }

    @Test("A file whose content is in the library already gives that book, without parsing or saving")
    func duplicateReturnsExistingBook() async throws {
        // Given
        let existing = LibraryBook.stub(id: 2, contentHash: "feedface", sourcePath: "/old/place/moby.epub")
        sourceRepositoryMock.contentHashResult = .success("feedface")
        bookRepositoryMock.getBookByHashResult = .success(existing)

        // When
        let (book, existed) = try await sut.execute(path: Self.path)

        // Then
        #expect(book == existing)
        #expect(existed)
        #expect(sourceRepositoryMock.bookCallCount == 0)
        #expect(bookRepositoryMock.saveBookCallCount == 0)
    }

    @Test("A file with an extension Narrate does not read throws unsupportedFormat without any call", arguments: ["/books/scan.djvu", "notes.doc", "/books/a.epub.bak"])
    func unsupportedExtensionThrows(path: String) async throws {
        // When / Then
        await #expect(throws: BookError.unsupportedFormat(path: path)) {
            _ = try await sut.execute(path: path)
        }
        #expect(sourceRepositoryMock.contentHashCallCount == 0)
        #expect(sourceRepositoryMock.bookCallCount == 0)
        #expect(bookRepositoryMock.getBookByHashCallCount == 0)
        #expect(bookRepositoryMock.saveBookCallCount == 0)
    }

    @Test("Supported extensions in any case, and a file without extension, are imported", arguments: ["/books/a.TXT", "/books/a.Md", "/books/a.xhtml", "/books/README", "/books/a.DOCX", "a.odt", "/books/a.fb2", "/books/a.fb2.zip"])
    func supportedExtensionsAreImported(path: String) async throws {
        // Given
        sourceRepositoryMock.contentHashResult = .success("feedface")
        bookRepositoryMock.getBookByHashResult = .success(nil)
        sourceRepositoryMock.result = .success(Self.parsed)
        bookRepositoryMock.saveBookResult = .success(Self.saved)

        // When
        _ = try await sut.execute(path: path)

        // Then
        #expect(sourceRepositoryMock.lastRequestedPath == path)
        #expect(bookRepositoryMock.lastSaveCall?.sourcePath == path)
    }

    @Test("A hashing error propagates and nothing is parsed or saved")
    func hashErrorPropagates() async throws {
        // Given
        sourceRepositoryMock.contentHashResult = .failure(.fileNotFound(path: Self.path))

        // When / Then
        await #expect(throws: BookError.fileNotFound(path: Self.path)) {
            _ = try await sut.execute(path: Self.path)
        }
        #expect(sourceRepositoryMock.bookCallCount == 0)
        #expect(bookRepositoryMock.saveBookCallCount == 0)
    }

    @Test("A parsing error propagates and nothing is saved")
    func parseErrorPropagates() async throws {
        // Given
        sourceRepositoryMock.contentHashResult = .success("feedface")
        bookRepositoryMock.getBookByHashResult = .success(nil)
        sourceRepositoryMock.result = .failure(.missingSpine(path: Self.path))

        // When / Then
        await #expect(throws: BookError.missingSpine(path: Self.path)) {
            _ = try await sut.execute(path: Self.path)
        }
        #expect(bookRepositoryMock.saveBookCallCount == 0)
    }

    @Test("A library error while saving propagates")
    func saveErrorPropagates() async throws {
        // Given
        sourceRepositoryMock.contentHashResult = .success("feedface")
        bookRepositoryMock.getBookByHashResult = .success(nil)
        sourceRepositoryMock.result = .success(Self.parsed)
        bookRepositoryMock.saveBookResult = .failure(.libraryFailed(reason: "disk full"))

        // When / Then
        await #expect(throws: BookError.libraryFailed(reason: "disk full")) {
            _ = try await sut.execute(path: Self.path)
        }
    }
}
