/// An entry of a book's table of contents.
public struct Chapter: Sendable, Hashable, Codable {
    public var title: String
    /// Nesting level, 0 for top-level entries.
    public var depth: Int
    /// 1-based index of the chapter's first page.
    public var firstPage: Int

    public init(title: String, depth: Int = 0, firstPage: Int) {
        self.title = title
        self.depth = depth
        self.firstPage = firstPage
    }
}
