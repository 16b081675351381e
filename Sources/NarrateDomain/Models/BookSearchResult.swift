/// A library book that matches a search, with the first matching page.
public struct BookSearchResult: Sendable, Hashable {
    public var bookID: BookID
    public var title: String
    public var authors: [String]
    /// 1-based index of the best matching page, when the match is in the text.
    public var pageIndex: Int?
    /// A short excerpt around the match.
    public var snippet: String

    public init(bookID: BookID, title: String, authors: [String], pageIndex: Int?, snippet: String) {
        self.bookID = bookID
        self.title = title
        self.authors = authors
        self.pageIndex = pageIndex
        self.snippet = snippet
    }
}
