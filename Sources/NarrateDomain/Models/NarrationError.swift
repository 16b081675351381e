/// Failures of narrating a book page: the book's, or the speech's.
public enum NarrationError: Error, Sendable, Equatable, CustomStringConvertible {
    case book(BookError)
    case speech(SpeechError)
    /// The engine failed on one of the page's texts (it crashed, hung, or the audio was too long).
    case engineFailedOnPage(page: String, SpeechError)

    public var description: String {
        switch self {
        case let .book(error): error.description
        case let .speech(error): error.description
        case let .engineFailedOnPage(page, error): "Page \(page): \(error.description)"
        }
    }
}
