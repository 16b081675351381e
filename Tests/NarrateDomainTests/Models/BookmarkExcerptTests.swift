import struct Foundation.Date
import Testing

@testable import NarrateDomain

@Suite struct BookmarkExcerptTests {
    static func bookmark(at offset: Int) -> Bookmark {
        Bookmark(id: BookmarkID(rawValue: 1), bookID: BookID(rawValue: 1), pageIndex: 1, textOffset: offset, note: nil, createdAt: Date(timeIntervalSince1970: 0))
    }

    @Test("The words from the place on, whitespace folded")
    func fromThePlace() {
        // Given
        let page = Page.stub(index: 1, text: "Mr. Fogg left.\n\nPassepartout   followed him.")

        // When / Then
        #expect(Self.bookmark(at: 0).excerpt(of: page) == "Mr. Fogg left. Passepartout followed him.")
        #expect(Self.bookmark(at: 16).excerpt(of: page) == "Passepartout followed him.")
    }

    @Test("A long text is cut at the last word within the limit, and an ellipsis follows")
    func cutAtAWord() {
        // Given
        let page = Page.stub(index: 1, text: "one two three four five six")

        // When
        let excerpt = Self.bookmark(at: 0).excerpt(of: page, limit: 13)

        // Then
        #expect(excerpt == "one two three…")
    }

    @Test("A place past the text, or inside a surrogate pair, is handled")
    func edges() {
        // Given: "🚂" is two UTF-16 units
        let page = Page.stub(index: 1, text: "🚂 steam")

        // When / Then
        #expect(Self.bookmark(at: 99).excerpt(of: page).isEmpty)
        #expect(Self.bookmark(at: 1).excerpt(of: page) == "🚂 steam")
        #expect(Self.bookmark(at: 3).excerpt(of: page) == "steam")
    }

    @Test("The bookmarked page is the book's page at its index, and none past the book's end")
    func bookmarkedPage() {
        // Given
        let book = Book.stub(pages: [.stub(index: 1), .stub(index: 2, label: "ii")])
        var bookmark = Self.bookmark(at: 0)

        // When / Then
        bookmark.pageIndex = 2
        #expect(bookmark.page(in: book)?.label == "ii")
        bookmark.pageIndex = 3
        #expect(bookmark.page(in: book) == nil)
    }
}
