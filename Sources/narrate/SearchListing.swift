import NarrateKit

/// A search hit for `search --json`.
struct SearchListing: Encodable {
    var id: Int64
    var title: String
    var authors: [String]
    var pageIndex: Int?
    var snippet: String
    /// How many places in the book match in all, listed or not.
    var bookMatchCount: Int

    init(_ result: BookSearchResult) {
        id = result.bookID.rawValue
        title = result.title
        authors = result.authors
        pageIndex = result.pageIndex
        snippet = result.snippet
        bookMatchCount = result.bookMatchCount
    }
}
