/// A paragraph of a printed document, in reading order.
public struct LayoutParagraph: Sendable, Hashable {
    public var text: String
    /// The 1-based page it starts on.
    public var page: Int
    /// The top of its first line on that page.
    public var top: Double
    /// Whether it is a heading set at the top of a page (larger or bold).
    public var isHeading: Bool

    public init(text: String, page: Int, top: Double, isHeading: Bool = false) {
        self.text = text
        self.page = page
        self.top = top
        self.isHeading = isHeading
    }
}
