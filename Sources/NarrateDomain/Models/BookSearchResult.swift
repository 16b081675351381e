/// One place in a library book that matches a search: a page, or the title and authors.
public struct BookSearchResult: Sendable, Hashable {
    public var bookID: BookID
    public var title: String
    public var authors: [String]
    /// 1-based index of the matching page, when the match is in the text.
    public var pageIndex: Int?
    /// A short excerpt around the match.
    public var snippet: String
    /// How many places in this book match in all (each matching page, and the title and
    /// authors as one more), whether or not the search returned every one of them.
    public var bookMatchCount: Int

    public init(bookID: BookID, title: String, authors: [String], pageIndex: Int?, snippet: String, bookMatchCount: Int = 1) {
        self.bookID = bookID
        self.title = title
        self.authors = authors
        self.pageIndex = pageIndex
        self.snippet = snippet
        self.bookMatchCount = bookMatchCount
    }
}
