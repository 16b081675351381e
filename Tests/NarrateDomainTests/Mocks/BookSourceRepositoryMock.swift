import NarrateDomain
import Synchronization

/// A `BookSourceRepositoryContract` answering from `result` (a failure by default).
final class BookSourceRepositoryMock: BookSourceRepositoryContract {
    private struct State {
        var result: Result<Book, BookError> = .failure(.libraryFailed(reason: "BookSourceRepositoryMock.result is not set"))
        var requestedPaths: [String] = []
    }

    private let state = Mutex(State())

    var result: Result<Book, BookError> {
        get { state.withLock { $0.result } }
        set { state.withLock { $0.result = newValue } }
    }

    var bookCallCount: Int { state.withLock { $0.requestedPaths.count } }
    var lastRequestedPath: String? { state.withLock { $0.requestedPaths.last } }

    func book(at path: String) async throws(BookError) -> Book {
        try state.withLock { state throws(BookError) in
            state.requestedPaths.append(path)
            return try state.result.get()
        }
    }
}
