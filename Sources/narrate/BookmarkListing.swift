import Foundation
import NarrateKit

/// A bookmark for `narrate bookmarks --json` (camelCase keys, as the other listings).
struct BookmarkListing: Encodable {
    var id: Int64
    var pageIndex: Int
    /// The page's label; absent when the book, read again, has no such page any more.
    var page: String?
    var textOffset: Int
    var excerpt: String
    var note: String?
    var created: Date

    init(_ bookmark: Bookmark, in book: LibraryBook) {
        let page = bookmark.page(in: book.book)
        id = bookmark.id.rawValue
        pageIndex = bookmark.pageIndex
        self.page = page?.label
        textOffset = bookmark.textOffset
        excerpt = page.map { bookmark.excerpt(of: $0) } ?? ""
        note = bookmark.note
        created = bookmark.createdAt
    }

    /// The bookmark in a line of the listing (its note, if any, on the next).
    var lines: [String] {
        let place = "page \(page ?? "#\(pageIndex)")"
        var lines = ["\(String(id).rightPadded(5)) \(place.rightPadded(11)) \(excerpt)"]
        if let note { lines.append("\(String(repeating: " ", count: 18))Note: \(note)") }
        return lines.map(\.escapingControlCharacters)
    }
}
