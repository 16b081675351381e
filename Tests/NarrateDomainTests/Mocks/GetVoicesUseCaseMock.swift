import NarrateDomain
import Synchronization

/// A `GetVoicesUseCaseContract` answering from `result` (a failure until set), recording each
/// language asked for.
final class GetVoicesUseCaseMock: GetVoicesUseCaseContract {
    private struct State {
        var result: Result<[Voice], SpeechError> = .failure(.engineUnavailable(reason: "GetVoicesUseCaseMock.result is not set"))
        var languages: [String?] = []
    }

    private let state = Mutex(State())

    var result: Result<[Voice], SpeechError> {
        get { state.withLock { $0.result } }
        set { state.withLock { $0.result = newValue } }
    }

    var languages: [String?] { state.withLock { $0.languages } }

    func execute(language: String?) async throws(SpeechError) -> [Voice] {
        try state.withLock { state throws(SpeechError) in
            state.languages.append(language)
            return try state.result.get()
        }
    }
}
