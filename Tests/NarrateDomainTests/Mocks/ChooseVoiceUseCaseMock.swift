import NarrateDomain
import Synchronization

/// A `ChooseVoiceUseCaseContract` answering from `result` (a failure until set), recording each
/// request with the title of the book it was for.
final class ChooseVoiceUseCaseMock: ChooseVoiceUseCaseContract {
    struct Call: Equatable {
        var request: VoiceRequest
        var bookTitle: String?
    }

    private struct State {
        var result: Result<VoiceChoice, SpeechError> = .failure(.engineUnavailable(reason: "ChooseVoiceUseCaseMock.result is not set"))
        var calls: [Call] = []
    }

    private let state = Mutex(State())

    var result: Result<VoiceChoice, SpeechError> {
        get { state.withLock { $0.result } }
        set { state.withLock { $0.result = newValue } }
    }

    var calls: [Call] { state.withLock { $0.calls } }

    func execute(_ request: VoiceRequest, reading book: Book?) async throws(SpeechError) -> VoiceChoice {
        try state.withLock { state throws(SpeechError) in
            state.calls.append(Call(request: request, bookTitle: book?.metadata.title))
            return try state.result.get()
        }
    }
}
