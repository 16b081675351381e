/// Failures of reading, parsing or finding a book.
public enum BookError: Error, Sendable, Equatable {
    case fileNotFound(path: String)
    case unreadable(path: String, reason: String)
    case unsupportedFormat(path: String)
    case noText(path: String)
    case pageNotFound(page: String, pageCount: Int)
    case bookNotFound(reference: String)
    case ambiguousBook(reference: String, matches: [String])
    case libraryFailed(reason: String)
    case endOfBook(title: String, pageCount: Int)
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
        case let .bookNotFound(reference):
            "No book matches '\(reference)'. Give a file path, a library id or a title prefix; 'narrate list' shows the library."
        case let .ambiguousBook(reference, matches):
            "'\(reference)' matches several books: \(matches.joined(separator: "; ")). Use the library id or a longer title."
        case let .endOfBook(title, pageCount):
            "'\(title)' is read to the end (page \(pageCount) of \(pageCount)). Narrate a page by number with 'narrate page', or start over with 'narrate next --restart'."
        case let .libraryFailed(reason):
            "The book library could not be used: \(reason). Check that its folder is writable, or choose another with --library."
        }
    }
}
