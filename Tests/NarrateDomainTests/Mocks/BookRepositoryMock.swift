import NarrateDomain
import Synchronization

/// A `BookRepositoryContract` answering every call from its own result (failures by default),
/// recording every call's arguments.
final class BookRepositoryMock: BookRepositoryContract {
    private static func unset(_ name: String) -> BookError {
        .libraryFailed(reason: "BookRepositoryMock.\(name) is not set")
    }

    /// The arguments of one `saveBook` call.
    struct SaveCall: Equatable {
        var book: Book
        var contentHash: String
        var sourcePath: String
    }

    /// The arguments of one `updateProgress` call.
    struct ProgressCall: Equatable {
        var bookID: BookID
        var progress: ReadingProgress
    }

    private struct State {
        var getAllBooksResult: Result<[LibraryBook], BookError> = .failure(unset("getAllBooksResult"))
        var getBookByIDResult: Result<LibraryBook?, BookError> = .failure(unset("getBookByIDResult"))
        var getBookByHashResult: Result<LibraryBook?, BookError> = .failure(unset("getBookByHashResult"))
        var saveBookResult: Result<LibraryBook, BookError> = .failure(unset("saveBookResult"))
        var updateBookResult: Result<Void, BookError> = .failure(unset("updateBookResult"))
        var deleteBookResult: Result<Void, BookError> = .failure(unset("deleteBookResult"))
        var searchBooksResult: Result<[BookSearchResult], BookError> = .failure(unset("searchBooksResult"))
        var updateProgressResult: Result<Void, BookError> = .failure(unset("updateProgressResult"))
        var getCoverResult: Result<BookCover?, BookError> = .failure(unset("getCoverResult"))
        var library: [LibraryBook]?
        var getBookTitlesFailure: BookError?
        var getBookTitlesCallCount = 0

        var getAllBooksCallCount = 0
        var requestedIDs: [BookID] = []
        var requestedHashes: [String] = []
        var saveCalls: [SaveCall] = []
        var updatedBooks: [LibraryBook] = []
        var deletedIDs: [BookID] = []
        var searchQueries: [String] = []
        var searchHitsPerBook: [Int?] = []
        var progressCalls: [ProgressCall] = []
        var coverRequests: [BookID] = []
    }

    private let state = Mutex(State())

    // MARK: - Configuration

    var getAllBooksResult: Result<[LibraryBook], BookError> {
        get { state.withLock { $0.getAllBooksResult } }
        set { state.withLock { $0.getAllBooksResult = newValue } }
    }

    /// Books for `getBookTitles()` and, by id, for `getBook(id:)` (before `getBookByIDResult`);
    /// `nil` (the default): `getBookTitles()` fails.
    var library: [LibraryBook]? {
        get { state.withLock { $0.library } }
        set { state.withLock { $0.library = newValue } }
    }

    var getBookTitlesCallCount: Int { state.withLock { $0.getBookTitlesCallCount } }

    /// An error `getBookTitles()` throws (before looking at `library`).
    var getBookTitlesFailure: BookError? {
        get { state.withLock { $0.getBookTitlesFailure } }
        set { state.withLock { $0.getBookTitlesFailure = newValue } }
    }

    var getBookByIDResult: Result<LibraryBook?, BookError> {
        get { state.withLock { $0.getBookByIDResult } }
        set { state.withLock { $0.getBookByIDResult = newValue } }
    }

    var getBookByHashResult: Result<LibraryBook?, BookError> {
        get { state.withLock { $0.getBookByHashResult } }
        set { state.withLock { $0.getBookByHashResult = newValue } }
    }

    var saveBookResult: Result<LibraryBook, BookError> {
        get { state.withLock { $0.saveBookResult } }
        set { state.withLock { $0.saveBookResult = newValue } }
    }

    var updateBookResult: Result<Void, BookError> {
        get { state.withLock { $0.updateBookResult } }
        set { state.withLock { $0.updateBookResult = newValue } }
    }

    var deleteBookResult: Result<Void, BookError> {
        get { state.withLock { $0.deleteBookResult } }
        set { state.withLock { $0.deleteBookResult = newValue } }
    }

    var searchBooksResult: Result<[BookSearchResult], BookError> {
        get { state.withLock { $0.searchBooksResult } }
        set { state.withLock { $0.searchBooksResult = newValue } }
    }

    var updateProgressResult: Result<Void, BookError> {
        get { state.withLock { $0.updateProgressResult } }
        set { state.withLock { $0.updateProgressResult = newValue } }
    }

    var getCoverResult: Result<BookCover?, BookError> {
        get { state.withLock { $0.getCoverResult } }
        set { state.withLock { $0.getCoverResult = newValue } }
    }

    // MARK: - Call tracking

    var getAllBooksCallCount: Int { state.withLock { $0.getAllBooksCallCount } }
    var getBookByIDCallCount: Int { state.withLock { $0.requestedIDs.count } }
    var lastRequestedID: BookID? { state.withLock { $0.requestedIDs.last } }
    var requestedIDs: [BookID] { state.withLock { $0.requestedIDs } }
    var getBookByHashCallCount: Int { state.withLock { $0.requestedHashes.count } }
    var lastRequestedHash: String? { state.withLock { $0.requestedHashes.last } }
    var saveBookCallCount: Int { state.withLock { $0.saveCalls.count } }
    var lastSaveCall: SaveCall? { state.withLock { $0.saveCalls.last } }
    var updateBookCallCount: Int { state.withLock { $0.updatedBooks.count } }
    var deleteBookCallCount: Int { state.withLock { $0.deletedIDs.count } }
    var lastDeletedID: BookID? { state.withLock { $0.deletedIDs.last } }
    var searchBooksCallCount: Int { state.withLock { $0.searchQueries.count } }
    var lastSearchQuery: String? { state.withLock { $0.searchQueries.last } }
    var lastSearchHitsPerBook: Int?? { state.withLock { $0.searchHitsPerBook.last } }
    var updateProgressCallCount: Int { state.withLock { $0.progressCalls.count } }
    var lastProgressCall: ProgressCall? { state.withLock { $0.progressCalls.last } }
    var getCoverCallCount: Int { state.withLock { $0.coverRequests.count } }

    // MARK: - BookRepositoryContract

    func getAllBooks() async throws(BookError) -> [LibraryBook] {
        try state.withLock { state throws(BookError) in
            state.getAllBooksCallCount += 1
            return try state.getAllBooksResult.get()
        }
    }

    func getBookTitles() async throws(BookError) -> [BookTitle] {
        try state.withLock { state throws(BookError) in
            state.getBookTitlesCallCount += 1
            if let failure = state.getBookTitlesFailure { throw failure }
            guard let library = state.library else { throw BookRepositoryMock.unset("library") }
            return library.map { BookTitle(id: $0.id, title: $0.book.metadata.title) }
        }
    }

    func getBook(id: BookID) async throws(BookError) -> LibraryBook? {
        try state.withLock { state throws(BookError) in
            state.requestedIDs.append(id)
            if let book = state.library?.first(where: { $0.id == id }) { return book }
            return try state.getBookByIDResult.get()
        }
    }

    func getBook(contentHash: String) async throws(BookError) -> LibraryBook? {
        try state.withLock { state throws(BookError) in
            state.requestedHashes.append(contentHash)
            return try state.getBookByHashResult.get()
        }
    }

    func saveBook(_ book: Book, contentHash: String, sourcePath: String) async throws(BookError) -> LibraryBook {
        try state.withLock { state throws(BookError) in
            state.saveCalls.append(SaveCall(book: book, contentHash: contentHash, sourcePath: sourcePath))
            return try state.saveBookResult.get()
        }
    }

    func updateBook(_ book: LibraryBook) async throws(BookError) {
        try state.withLock { state throws(BookError) in
            state.updatedBooks.append(book)
            try state.updateBookResult.get()
        }
    }

    func deleteBook(id: BookID) async throws(BookError) {
        try state.withLock { state throws(BookError) in
            state.deletedIDs.append(id)
            try state.deleteBookResult.get()
        }
    }

    func searchBooks(query: String, hitsPerBook: Int?) async throws(BookError) -> [BookSearchResult] {
        try state.withLock { state throws(BookError) in
            state.searchQueries.append(query)
            state.searchHitsPerBook.append(hitsPerBook)
            return try state.searchBooksResult.get()
        }
    }

    func updateProgress(bookID: BookID, progress: ReadingProgress) async throws(BookError) {
        try state.withLock { state throws(BookError) in
            state.progressCalls.append(ProgressCall(bookID: bookID, progress: progress))
            try state.updateProgressResult.get()
        }
    }

    func getCover(bookID: BookID) async throws(BookError) -> BookCover? {
        try state.withLock { state throws(BookError) in
            state.coverRequests.append(bookID)
            return try state.getCoverResult.get()
        }
    }
}
