/// Where a chapter of a printed document starts among its paragraphs.
public struct LayoutChapter: Sendable, Hashable {
    public var title: String
    public var depth: Int
    /// Index into `LayoutResult.paragraphs` of its first paragraph.
    public var paragraphIndex: Int

    public init(title: String, depth: Int = 0, paragraphIndex: Int) {
        self.title = title
        self.depth = depth
        self.paragraphIndex = paragraphIndex
    }
}
