import NarrateDomain
import Synchronization

/// A `GetBookDetailUseCaseContract` answering from `result` (a failure until set), recording
/// the references asked for.
final class GetBookDetailUseCaseMock: GetBookDetailUseCaseContract {
    private struct State {
        var result: Result<LibraryBook, BookError> = .failure(.libraryFailed(reason: "GetBookDetailUseCaseMock.result is not set"))
        var references: [String] = []
    }

    private let state = Mutex(State())

    var result: Result<LibraryBook, BookError> {
        get { state.withLock { $0.result } }
        set { state.withLock { $0.result = newValue } }
    }

    var references: [String] { state.withLock { $0.references } }

    func execute(reference: String) async throws(BookError) -> LibraryBook {
        try state.withLock { state throws(BookError) in
            state.references.append(reference)
            return try state.result.get()
        }
    }
}
