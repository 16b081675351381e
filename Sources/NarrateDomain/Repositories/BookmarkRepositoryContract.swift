import struct Foundation.Date

/// The library's bookmarks (SQLite, beside the reading progress).
public protocol BookmarkRepositoryContract: Sendable {
    /// The book's bookmarks in reading order: by page, place on the page, then age.
    func getBookmarks(bookID: BookID) async throws(BookError) -> [Bookmark]
    /// Saves a new bookmark and returns it with its id.
    /// - Throws: `BookError.bookNotFound` when the book is not in the library.
    func addBookmark(bookID: BookID, pageIndex: Int, textOffset: Int, note: String?, createdAt: Date) async throws(BookError) -> Bookmark
    /// Removes bookmark `id` of book `bookID` and returns it; `nil` when the book has no such bookmark.
    func removeBookmark(id: BookmarkID, bookID: BookID) async throws(BookError) -> Bookmark?
}
