import NarrateDomain
import Synchronization

/// A `BookSourceRepositoryContract` answering from `result` and `contentHashResult`
/// (failures by default), recording every path it is asked about.
final class BookSourceRepositoryMock: BookSourceRepositoryContract {
    private struct State {
        var result: Result<Book, BookError> = .failure(.libraryFailed(reason: "BookSourceRepositoryMock.result is not set"))
        var contentHashResult: Result<String, BookError> = .failure(.libraryFailed(reason: "BookSourceRepositoryMock.contentHashResult is not set"))
        var requestedPaths: [String] = []
        var matterRequests: [Bool] = []
        var hashedPaths: [String] = []
        var parserVersion = 0
    }

    private let state = Mutex(State())

    // MARK: - Configuration

    var result: Result<Book, BookError> {
        get { state.withLock { $0.result } }
        set { state.withLock { $0.result = newValue } }
    }

    var contentHashResult: Result<String, BookError> {
        get { state.withLock { $0.contentHashResult } }
        set { state.withLock { $0.contentHashResult = newValue } }
    }

    /// The parsers' generation this source reports (0 by default: no book is stale).
    var parserVersion: Int {
        get { state.withLock { $0.parserVersion } }
        set { state.withLock { $0.parserVersion = newValue } }
    }

    // MARK: - Call tracking

    /// `includingMatter` of each `book(at:)` call, in order (false for the plain form).
    var matterRequests: [Bool] { state.withLock { $0.matterRequests } }

    var bookCallCount: Int { state.withLock { $0.requestedPaths.count } }
    var lastRequestedPath: String? { state.withLock { $0.requestedPaths.last } }
    var contentHashCallCount: Int { state.withLock { $0.hashedPaths.count } }
    var lastHashedPath: String? { state.withLock { $0.hashedPaths.last } }

    // MARK: - BookSourceRepositoryContract

    func book(at path: String) async throws(BookError) -> Book {
        try await book(at: path, includingMatter: false)
    }

    func book(at path: String, includingMatter: Bool) async throws(BookError) -> Book {
        try state.withLock { state throws(BookError) in
            state.requestedPaths.append(path)
            state.matterRequests.append(includingMatter)
            return try state.result.get()
        }
    }

    func contentHash(ofFileAt path: String) async throws(BookError) -> String {
        try state.withLock { state throws(BookError) in
            state.hashedPaths.append(path)
            return try state.contentHashResult.get()
        }
    }
}
