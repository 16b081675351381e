/// Failures of narrating a book page: the book's, or the speech's.
public enum NarrationError: Error, Sendable, Equatable, CustomStringConvertible {
    case book(BookError)
    case speech(SpeechError)

    public var description: String {
        switch self {
        case let .book(error): error.description
        case let .speech(error): error.description
        }
    }
}
