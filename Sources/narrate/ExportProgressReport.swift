import NarrateKit
import Synchronization

/// What `narrate book` shows of an export's events: the voice once the book is found (unless
/// named), then the progress display for the folder the export writes into.
final class ExportProgressReport: Sendable {
    private let quiet: Bool
    private let state = Mutex<(book: LibraryBook, directory: String, display: ProgressDisplay)?>(nil)

    init(quiet: Bool) {
        self.quiet = quiet
    }

    func handle(_ event: ExportEvent) {
        switch event {
        case let .started(book, voice, directory):
            StorageOptions.report(voice, quiet: quiet)
            let display = ProgressDisplay(quiet: quiet, directory: directory)
            state.withLock { $0 = (book, directory, display) }
        case let .progress(progress):
            state.withLock { $0?.display }?.update(progress)
        case .finished:
            break
        }
    }

    /// The book and folder of the export, once it has started.
    func started() -> (book: LibraryBook, directory: String) {
        guard let (book, directory, _) = state.withLock({ $0 }) else { preconditionFailure("an export returned before it started") }
        return (book, directory)
    }

    /// Ends the display's bar line.
    func finish() {
        state.withLock { $0?.display }?.finish()
    }
}
