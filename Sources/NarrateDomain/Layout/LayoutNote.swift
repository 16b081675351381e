/// A footnote of a printed page: not read inline, listed as a note.
public struct LayoutNote: Sendable, Hashable {
    /// The 1-based page it is printed on.
    public var page: Int
    /// Its mark (`1`, `*`), without which it is printed.
    public var marker: String
    public var text: String

    public init(page: Int, marker: String, text: String) {
        self.page = page
        self.marker = marker
        self.text = text
    }
}
