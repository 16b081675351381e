import Testing

@testable import NarrateDomain

@Suite struct DeleteBookUseCaseTests {
    static let emma = LibraryBook.stub(id: 1, title: "Emma", contentHash: "e1")
    static let moby = LibraryBook.stub(id: 3, title: "Moby-Dick", contentHash: "m3")

    let bookRepositoryMock: BookRepositoryMock
    let sourceRepositoryMock: BookSourceRepositoryMock
    let sut: DeleteBookUseCase

    init() {
        bookRepositoryMock = BookRepositoryMock()
        bookRepositoryMock.library = [Self.emma, Self.moby]
        bookRepositoryMock.deleteBookResult = .success(())
        sourceRepositoryMock = BookSourceRepositoryMock()
        sut = DeleteBookUseCase(bookRepository: bookRepositoryMock, sourceRepository: sourceRepositoryMock)
    }

    @Test("A library id deletes that book and returns it")
    func deletesByID() async throws {
        // Given
        bookRepositoryMock.getBookByIDResult = .success(Self.moby)

        // When
        let deleted = try await sut.execute(reference: "3")

        // Then
        #expect(deleted == Self.moby)
        #expect(bookRepositoryMock.lastRequestedID == BookID(rawValue: 3))
        #expect(bookRepositoryMock.deleteBookCallCount == 1)
        #expect(bookRepositoryMock.lastDeletedID == BookID(rawValue: 3))
    }

    @Test("A title prefix deletes the book it names")
    func deletesByTitle() async throws {
        // When
        let deleted = try await sut.execute(reference: "moby")

        // Then
        #expect(deleted == Self.moby)
        #expect(bookRepositoryMock.lastDeletedID == BookID(rawValue: 3))
    }

    @Test("A path is looked up by its content hash and deleted, without being parsed or imported")
    func deletesByPathWithoutImporting() async throws {
        // Given
        sourceRepositoryMock.contentHashResult = .success("e1")
        bookRepositoryMock.getBookByHashResult = .success(Self.emma)

        // When
        let deleted = try await sut.execute(reference: "/books/emma.txt")

        // Then
        #expect(deleted == Self.emma)
        #expect(sourceRepositoryMock.lastHashedPath == "/books/emma.txt")
        #expect(bookRepositoryMock.lastRequestedHash == "e1")
        #expect(bookRepositoryMock.lastDeletedID == BookID(rawValue: 1))
        #expect(sourceRepositoryMock.bookCallCount == 0)
        #expect(bookRepositoryMock.saveBookCallCount == 0)
    }

    @Test("A file that is not in the library throws bookNotFound, and is neither imported nor deleted")
    func pathNotInLibraryThrows() async throws {
        // Given
        sourceRepositoryMock.contentHashResult = .success("new")
        bookRepositoryMock.getBookByHashResult = .success(nil)

        // When / Then
        await #expect(throws: BookError.bookNotFound(reference: "/books/persuasion.txt")) {
            _ = try await sut.execute(reference: "/books/persuasion.txt")
        }
        #expect(sourceRepositoryMock.bookCallCount == 0)
        #expect(bookRepositoryMock.saveBookCallCount == 0)
        #expect(bookRepositoryMock.deleteBookCallCount == 0)
    }

    @Test("A file name with surrounding whitespace that is not in the library is not imported either")
    func paddedPathNotInLibraryIsNotImported() async throws {
        // Given
        sourceRepositoryMock.contentHashResult = .success("new")
        sourceRepositoryMock.result = .success(.stub())
        bookRepositoryMock.getBookByHashResult = .success(nil)
        bookRepositoryMock.saveBookResult = .success(.stub(id: 8, contentHash: "new", sourcePath: "persuasion.txt"))

        // When
        var thrown: BookError?
        do { _ = try await sut.execute(reference: "persuasion.txt ") } catch { thrown = error }

        // Then
        #expect(thrown == .bookNotFound(reference: "persuasion.txt "))
        #expect(sourceRepositoryMock.bookCallCount == 0)
        #expect(bookRepositoryMock.saveBookCallCount == 0)
    }

    @Test("A title or id not in the library throws bookNotFound and deletes nothing", arguments: ["Persuasion", "99"])
    func referenceNotInLibraryThrows(reference: String) async throws {
        // Given
        bookRepositoryMock.getBookByIDResult = .success(nil)

        // When / Then
        await #expect(throws: BookError.bookNotFound(reference: reference)) {
            _ = try await sut.execute(reference: reference)
        }
        #expect(bookRepositoryMock.deleteBookCallCount == 0)
    }

    @Test("A repository error while deleting propagates")
    func deleteErrorPropagates() async throws {
        // Given
        bookRepositoryMock.deleteBookResult = .failure(.libraryFailed(reason: "read-only"))

        // When / Then
        await #expect(throws: BookError.libraryFailed(reason: "read-only")) {
            _ = try await sut.execute(reference: "Emma")
        }
    }
}
