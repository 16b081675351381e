/// A rectangle on a printed page, in points, with y growing down from the top of the page.
public struct LayoutBox: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var midY: Double { y + height / 2 }

    /// The smallest box holding both.
    public func union(_ other: LayoutBox) -> LayoutBox {
        let left = min(x, other.x), top = min(y, other.y)
        return LayoutBox(x: left, y: top, width: max(maxX, other.maxX) - left, height: max(maxY, other.maxY) - top)
    }
}
