/// A run of text in one font on a printed page: a word, or a part of one set in another font (a superscript
/// note mark glued to its word is a word of its own, with no gap before it).
public struct LayoutWord: Sendable, Hashable {
    public var text: String
    public var box: LayoutBox
    /// The font size in points.
    public var fontSize: Double
    public var isBold: Bool

    public init(text: String, box: LayoutBox, fontSize: Double, isBold: Bool = false) {
        self.text = text
        self.box = box
        self.fontSize = fontSize
        self.isBold = isBold
    }
}
