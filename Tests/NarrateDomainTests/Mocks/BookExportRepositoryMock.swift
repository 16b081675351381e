import NarrateDomain
import Synchronization

/// A `BookExportRepositoryContract` answering from `result` (a failure until set), recording
/// each export's book title, voice and options, and reporting `progress` before it answers.
final class BookExportRepositoryMock: BookExportRepositoryContract {
    struct Call: Equatable {
        var bookTitle: String
        var voice: VoiceProfile
        var options: BookExportOptions
    }

    private struct State {
        var result: Result<ExportSummary, ExportError> = .failure(.speech(.engineUnavailable(reason: "BookExportRepositoryMock.result is not set")))
        var progress: [ExportProgress] = []
        var calls: [Call] = []
    }

    private let state = Mutex(State())

    var result: Result<ExportSummary, ExportError> {
        get { state.withLock { $0.result } }
        set { state.withLock { $0.result = newValue } }
    }

    var progress: [ExportProgress] {
        get { state.withLock { $0.progress } }
        set { state.withLock { $0.progress = newValue } }
    }

    var calls: [Call] { state.withLock { $0.calls } }

    func export(book: Book, voice: VoiceProfile, options: BookExportOptions, onProgress: @escaping @Sendable (ExportProgress) -> Void) async throws(ExportError) -> ExportSummary {
        let progress = state.withLock { state in
            state.calls.append(Call(bookTitle: book.metadata.title, voice: voice, options: options))
            return state.progress
        }
        for step in progress { onProgress(step) }
        return try state.withLock { state throws(ExportError) in try state.result.get() }
    }
}
