/// A printed document as a PDF reader hands it over: positioned lines per page and the outline.
public struct LayoutDocument: Sendable, Hashable {
    public var pages: [LayoutPage]
    public var outline: [LayoutOutlineEntry]

    public init(pages: [LayoutPage], outline: [LayoutOutlineEntry] = []) {
        self.pages = pages
        self.outline = outline
    }
}
