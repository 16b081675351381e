import Foundation
import Hummingbird
import NarrateKit

/// One bookmark in `GET /v1/books/{id}/bookmarks`, and the answer to adding one: its page by
/// index and label, its place on the page (UTF-16 units of the page text, as `/timing`
/// counts), the first words from there, and the note.
struct BookmarkResponse: ResponseEncodable, Decodable {
    var id: String
    var page_index: Int
    /// The page's label; absent when the book, read again, has no such page any more.
    var page: String?
    var text_offset: Int
    var excerpt: String
    var note: String?
    var created: Date
}

extension BookmarkResponse {
    init(_ bookmark: Bookmark, in book: LibraryBook) {
        let page = bookmark.page(in: book.book)
        self.init(
            id: bookmark.id.description, page_index: bookmark.pageIndex, page: page?.label, text_offset: bookmark.textOffset,
            excerpt: page.map { bookmark.excerpt(of: $0) } ?? "", note: bookmark.note, created: bookmark.createdAt)
    }
}

/// `GET /v1/books/{id}/bookmarks`: a book's bookmarks in reading order.
struct BookmarkListResponse: ResponseEncodable, Decodable {
    var book_id: String
    var bookmarks: [BookmarkResponse]
}

/// The body of `POST /v1/books/{id}/bookmarks`: a page label or a 1-based page index, the
/// place on it, and a note.
struct BookmarkCreateBody: Decodable {
    var page: String?
    var page_index: Int?
    var text_offset: Int?
    var note: String?
}
