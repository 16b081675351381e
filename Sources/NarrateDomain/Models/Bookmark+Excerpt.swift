extension Bookmark {
    /// The bookmarked page of `book`; `nil` when the book, read again by newer parsers, has no
    /// such page any more.
    public func page(in book: Book) -> Page? {
        book.pages.indices.contains(pageIndex - 1) ? book.pages[pageIndex - 1] : nil
    }

    /// The longest excerpt shown for a bookmark, in characters.
    public static let excerptLimit = 80

    /// The words of `page`'s text from the bookmark's place on, whitespace folded: at most
    /// `limit` characters, cut at a word and then followed by "…"; empty when the place is
    /// past the text.
    public func excerpt(of page: Page, limit: Int = Bookmark.excerptLimit) -> String {
        let units = page.text.utf16
        guard textOffset >= 0, textOffset < units.count else { return "" }
        var start = units.index(units.startIndex, offsetBy: textOffset)
        // An offset inside a surrogate pair starts at the pair's character.
        while start > units.startIndex, String.Index(start, within: page.text) == nil { start = units.index(before: start) }
        let tail = page.text[start...]
        var words: [Substring] = []
        var length = 0
        for word in tail.split(whereSeparator: \.isWhitespace) {
            let added = (words.isEmpty ? 0 : 1) + word.count
            if length + added > limit {
                if words.isEmpty { return String(word.prefix(max(limit - 1, 1))) + "…" }
                return words.joined(separator: " ") + "…"
            }
            words.append(word)
            length += added
        }
        return words.joined(separator: " ")
    }
}
