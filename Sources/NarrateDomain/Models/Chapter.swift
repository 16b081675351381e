/// An entry of a book's table of contents.
///
/// A chapter starts at a text position: its first page and an offset into that page's text, so several
/// chapters can start on one printed page and each is still its own span of text.
public struct Chapter: Sendable, Hashable, Codable {
    public var title: String
    /// Nesting level, 0 for top-level entries.
    public var depth: Int
    /// 1-based index of the chapter's first page.
    public var firstPage: Int
    /// Where the chapter starts in its first page's `text`, in Unicode scalars; 0 at the top of the page.
    public var textOffset: Int

    public init(title: String, depth: Int = 0, firstPage: Int, textOffset: Int = 0) {
        self.title = title
        self.depth = depth
        self.firstPage = firstPage
        self.textOffset = textOffset
    }

    private enum CodingKeys: String, CodingKey {
        case title, depth, firstPage, textOffset
    }

    /// Decodes a chapter; one stored before chapters had a text offset starts at the top of its page.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        depth = try container.decode(Int.self, forKey: .depth)
        firstPage = try container.decode(Int.self, forKey: .firstPage)
        textOffset = try container.decodeIfPresent(Int.self, forKey: .textOffset) ?? 0
    }
}
