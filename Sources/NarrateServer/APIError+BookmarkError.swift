import HTTPTypes
import NarrateKit

/// A bookmark error in the service's words: the book's as `APIError+BookError` words them, a
/// missing bookmark 404, a page, place or note the book cannot take 400, a full book 409.
extension APIError {
    init(_ error: BookmarkError) {
        switch error {
        case let .book(.pageNotFound(page, pageCount)):
            self = .badRequest(BookError.pageNotFound(page: page, pageCount: pageCount).description, param: "page", code: "page_not_found")
        case let .book(error):
            self = APIError(error)
        case let .bookmarkNotFound(id, _):
            self = APIError(.notFound, "This book has no bookmark '\(id)'; GET /v1/books/{id}/bookmarks lists them.", code: "bookmark_not_found")
        case .offsetOutsidePage:
            self = .badRequest(error.description, param: "text_offset", code: "offset_outside_page")
        case .noteTooLong:
            self = .badRequest(error.description, param: "note", code: "note_too_long")
        case .tooManyBookmarks:
            self = APIError(.conflict, error.description, code: "too_many_bookmarks")
        }
    }
}
