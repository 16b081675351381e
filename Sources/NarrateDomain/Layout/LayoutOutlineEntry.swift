/// An entry of a printed document's outline (a PDF's bookmarks).
public struct LayoutOutlineEntry: Sendable, Hashable {
    public var title: String
    /// Nesting level, 0 for top-level entries.
    public var depth: Int
    /// The 1-based page it points to.
    public var page: Int
    /// Where on that page it points, from the page's top, when the destination says.
    public var top: Double?

    public init(title: String, depth: Int = 0, page: Int, top: Double? = nil) {
        self.title = title
        self.depth = depth
        self.page = page
        self.top = top
    }
}
