/// One printed page as positioned lines, in no particular order.
public struct LayoutPage: Sendable, Hashable {
    /// 1-based page number in the document.
    public var number: Int
    /// The printed page label (`xii`, `47`), when the document has one.
    public var label: String?
    public var width: Double
    public var height: Double
    public var lines: [LayoutLine]

    public init(number: Int, label: String? = nil, width: Double, height: Double, lines: [LayoutLine]) {
        self.number = number
        self.label = label
        self.width = width
        self.height = height
        self.lines = lines
    }
}
