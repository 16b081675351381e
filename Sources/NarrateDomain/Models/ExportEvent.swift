/// An event of a running export, for apps that follow it as an `AsyncSequence`.
public enum ExportEvent: Sendable {
    /// The book and voice were found (from a reference): the export starts into `directory`.
    case started(book: LibraryBook, voice: VoiceChoice, directory: String)
    case progress(ExportProgress)
    case finished(ExportSummary)
}
