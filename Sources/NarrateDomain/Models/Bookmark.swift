import struct Foundation.Date

/// A place in a book the listener marked to come back to, with an optional note. Bookmarks
/// live in the library beside the reading progress, and never move it.
public struct Bookmark: Sendable, Hashable, Codable {
    public var id: BookmarkID
    public var bookID: BookID
    /// 1-based index of the page.
    public var pageIndex: Int
    /// Where on the page: UTF-16 code units into the page's text (as the HTTP API's page timing
    /// counts them), 0 for its top.
    public var textOffset: Int
    /// What the listener wrote, if anything.
    public var note: String?
    public var createdAt: Date

    public init(id: BookmarkID, bookID: BookID, pageIndex: Int, textOffset: Int, note: String?, createdAt: Date) {
        self.id = id
        self.bookID = bookID
        self.pageIndex = pageIndex
        self.textOffset = textOffset
        self.note = note
        self.createdAt = createdAt
    }
}
