/// Failures of reading, parsing or finding a book.
public enum BookError: Error, Sendable, Equatable {
    case fileNotFound(path: String)
    case unreadable(path: String, reason: String)
    case unsupportedFormat(path: String)
    case noText(path: String)
    case pageNotFound(page: String, pageCount: Int)
}

extension BookError: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .fileNotFound(path):
            "No file at '\(path)'. Check the path."
        case let .unreadable(path, reason):
            "Could not read '\(path)': \(reason)."
        case let .unsupportedFormat(path):
            "'\(path)' is not a format Narrate reads. Use a .txt, .epub, .html or .md file."
        case let .noText(path):
            "'\(path)' has no text to read."
        case let .pageNotFound(page, pageCount):
            "There is no page \(page): the book has \(pageCount) page\(pageCount == 1 ? "" : "s") (1–\(pageCount))."
        }
    }
}
