import NarrateDomain
import Synchronization

/// A `BookSourceRepositoryContract` answering from `result` and `contentHashResult`
/// (failures by default), recording every path it is asked about.
final class BookSourceRepositoryMock: BookSourceRepositoryContract {
    private struct State {
        var result: Result<Book, BookError> = .failure(.libraryFailed(reason: "BookSourceRepositoryMock.result is not set"))
        var contentHashResult: Result<String, BookError> = .failure(.libraryFailed(reason: "BookSourceRepositoryMock.contentHashResult is not set"))
        var requestedPaths: [String] = []
        var hashedPaths: [String] = []
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

    // MARK: - Call tracking

    var bookCallCount: Int { state.withLock { $0.requestedPaths.count } }
    var lastRequestedPath: String? { state.withLock { $0.requestedPaths.last } }
    var contentHashCallCount: Int { state.withLock { $0.hashedPaths.count } }
    var lastHashedPath: String? { state.withLock { $0.hashedPaths.last } }

    // MARK: - BookSourceRepositoryContract

    func book(at path: String) async throws(BookError) -> Book {
        try state.withLock { state throws(BookError) in
            state.requestedPaths.append(path)
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
