/// Failures of listing, adding or removing bookmarks. `description` names no command, option
/// or route of a front end.
public enum BookmarkError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The book, its page or the library failed.
    case book(BookError)
    /// The book has no bookmark with this id.
    case bookmarkNotFound(id: String, title: String)
    /// The place given is past the end of the page's text.
    case offsetOutsidePage(offset: Int, page: String, length: Int)
    /// The note is longer than a bookmark keeps.
    case noteTooLong(length: Int, limit: Int)
    /// The book has as many bookmarks as one book may have.
    case tooManyBookmarks(title: String, limit: Int)

    public var description: String {
        switch self {
        case let .book(error):
            error.description
        case let .bookmarkNotFound(id, title):
            "'\(title)' has no bookmark \(id). List its bookmarks to see their numbers."
        case let .offsetOutsidePage(offset, page, length):
            "Place \(offset) is outside page \(page), whose text is \(length) characters long (0–\(length))."
        case let .noteTooLong(length, limit):
            "The note is \(length) characters long; a bookmark keeps at most \(limit). Shorten it."
        case let .tooManyBookmarks(title, limit):
            "'\(title)' has \(limit) bookmarks, the most a book may have. Remove some first."
        }
    }
}
