/// Puts a page's lines in reading order as runs read one after another: columns left to right, a side note after
/// the text beside it, and lines that span the columns (a title, a full-width paragraph) between the runs above
/// and below them. A recursive cut at the widest vertical gap no line crosses, as in the XY-cut.
public enum ReadingOrder {
    /// The page's lines as runs, each run a column or a part of one, its lines top to bottom.
    /// - Parameter fontSize: the body text's size; a gutter is at least this wide.
    public static func runs(of lines: [LayoutLine], fontSize: Double) -> [[LayoutLine]] {
        let lines = lines.filter { !$0.words.isEmpty }
        guard lines.count > 1 else { return lines.isEmpty ? [] : [lines] }
        let minimum = max(fontSize, 1)
        if let gap = gutter(of: lines, minimum: minimum) {
            let left = lines.filter { $0.box.maxX <= gap.lowerBound }
            let right = lines.filter { $0.box.x >= gap.upperBound }
            if overlapVertically(left, right) {
                return runs(of: left, fontSize: fontSize) + runs(of: right, fontSize: fontSize)
            }
        }
        if let split = splitAtSpanningLines(lines, minimum: minimum) {
            return split.flatMap { $0.count == 1 ? [$0] : runs(of: $0, fontSize: fontSize) }
        }
        return [mergingRows(topToBottom(lines))]
    }

    /// Lines top to bottom with the pieces of one printed line made one: a PDF reader may cut a justified line at
    /// its wide spaces.
    static func mergingRows(_ lines: [LayoutLine]) -> [LayoutLine] {
        var rows: [LayoutLine] = []
        for line in lines {
            if let previous = rows.last, abs(line.box.y - previous.box.y) < max(line.fontSize, 1) * 0.3,
               abs(line.box.maxY - previous.box.maxY) < max(line.fontSize, 1) * 0.3, line.box.x >= previous.box.maxX - 1 {
                rows[rows.count - 1].words += line.words
            } else {
                rows.append(line)
            }
        }
        return rows
    }

    /// Two columns under (or over) lines that cross their gutter: the gutter found among the narrower lines, then
    /// the lines cut into bands at each line that crosses it. Nil when there is no such gutter or no such line.
    /// `minimum` is the body text's size.
    static func splitAtSpanningLines(_ lines: [LayoutLine], minimum: Double) -> [[LayoutLine]]? {
        let left = lines.map(\.box.x).min() ?? 0, right = lines.map(\.box.maxX).max() ?? 0
        let width = right - left
        // Lines of the body's size only: a heading over one column may reach into the gutter.
        let narrow = lines.filter { $0.box.width < width * 0.55 && abs($0.fontSize - minimum) <= minimum * 0.15 }
        guard let gap = gutter(of: narrow, minimum: minimum) else { return nil }
        let middle = (gap.lowerBound + gap.upperBound) / 2
        guard middle > left + width * 0.3, middle < left + width * 0.7,
              narrow.filter({ $0.box.maxX <= gap.lowerBound }).count >= 3,
              narrow.filter({ $0.box.x >= gap.upperBound }).count >= 3
        else { return nil }
        var bands: [[LayoutLine]] = []
        var current: [LayoutLine] = []
        var crossed = false
        for line in topToBottom(lines) {
            if line.box.x < gap.upperBound, line.box.maxX > gap.lowerBound {
                if !current.isEmpty { bands.append(current) }
                bands.append([line])
                current = []
                crossed = true
            } else {
                current.append(line)
            }
        }
        if !current.isEmpty { bands.append(current) }
        return crossed ? bands : nil
    }

    /// The widest horizontal range, at least `minimum` wide, that lies between lines and inside none.
    static func gutter(of lines: [LayoutLine], minimum: Double) -> ClosedRange<Double>? {
        let spans = lines.map { ($0.box.x, $0.box.maxX) }.sorted { $0.0 < $1.0 }
        guard var reach = spans.first?.1 else { return nil }
        var best: ClosedRange<Double>?
        for span in spans.dropFirst() {
            if span.0 - reach >= minimum, span.0 - reach > (best.map { $0.upperBound - $0.lowerBound } ?? 0) {
                best = reach...span.0
            }
            reach = max(reach, span.1)
        }
        return best
    }

    /// Whether the two groups of lines share some height: side by side, not one above the other.
    static func overlapVertically(_ first: [LayoutLine], _ second: [LayoutLine]) -> Bool {
        guard let top1 = first.map(\.box.y).min(), let bottom1 = first.map(\.box.maxY).max(),
              let top2 = second.map(\.box.y).min(), let bottom2 = second.map(\.box.maxY).max()
        else { return false }
        return top1 < bottom2 && top2 < bottom1
    }

    /// Lines top to bottom, lines sharing a height left to right.
    static func topToBottom(_ lines: [LayoutLine]) -> [LayoutLine] {
        lines.sorted { first, second in
            let a = first.box, b = second.box
            if abs(a.midY - b.midY) > min(a.height, b.height) / 2 { return a.midY < b.midY }
            return a.x < b.x
        }
    }
}
