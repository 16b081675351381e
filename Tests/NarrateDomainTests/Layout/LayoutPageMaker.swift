import NarrateDomain

/// Small made-up pages for the layout tests: lines of 10-point text, 14 points apart, on a 600 × 800 page.
enum LayoutPageMaker {
    static let size = 10.0
    static let step = 14.0

    /// A page whose lines start at `x` and run down from `top`.
    static func page(_ number: Int, _ texts: [String], x: Double = 72, top: Double = 120) -> LayoutPage {
        LayoutPage(number: number, width: 600, height: 800, lines: lines(texts, x: x, top: top))
    }

    static func lines(_ texts: [String], x: Double = 72, top: Double = 120, size: Double = size) -> [LayoutLine] {
        texts.enumerated().map { LayoutLine(text: $1, x: x, y: top + Double($0) * step, fontSize: size) }
    }

    /// Words of a paragraph, cut into lines of `width` characters at most (as a printer would fill them).
    static func wrap(_ text: String, width: Int = 40) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            if current.isEmpty { current = String(word) } else if current.count + 1 + word.count <= width {
                current += " " + word
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}
