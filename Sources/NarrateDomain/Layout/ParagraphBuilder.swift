/// Joins lines in reading order into paragraphs, across columns and pages. A paragraph ends where the next line is
/// set apart: more space above it than between the lines around, an indent, another font size or weight, or a
/// line before it that stopped although the next line's first word would have fitted.
public struct ParagraphBuilder: Sendable {
    let vocabulary: LayoutVocabulary
    let textRight: Double
    private(set) var paragraphs: [LayoutParagraph] = []
    private var last: (line: LayoutLine, right: Double, isHeading: Bool)?

    /// - Parameters:
    ///   - vocabulary: the document's words, which decide a hyphen at a line's end (`LineJoiner`).
    ///   - textRight: where the document's full lines end, for runs too short to show their own right edge.
    public init(vocabulary: LayoutVocabulary = LayoutVocabulary(), textRight: Double = 0) {
        self.vocabulary = vocabulary
        self.textRight = textRight
    }

    /// Adds a run of lines read top to bottom (a column, or a part of one) from `page`.
    /// - Parameter headings: how many of its first lines are a heading at the top of the page.
    public mutating func add(run: [LayoutLine], page: Int, headings: Int = 0) {
        guard !run.isEmpty else { return }
        let left = Self.margin(of: run)
        let right = max(run.map(\.box.maxX).max() ?? 0, run.count < 3 ? textRight : 0)
        let spacing = Self.lineSpacing(of: run)
        for (index, line) in run.enumerated() {
            let isHeading = index < headings
            let text = LineJoiner.cleaned(line.text)
            guard !text.isEmpty else { continue }
            if let last, !startsParagraph(line, isHeading: isHeading, after: last, sameRun: index > 0, left: left, spacing: spacing) {
                paragraphs[paragraphs.count - 1].text = LineJoiner.join(
                    paragraphs[paragraphs.count - 1].text, text, vocabulary: vocabulary
                )
            } else {
                paragraphs.append(LayoutParagraph(text: text, page: page, top: line.box.y, isHeading: isHeading))
            }
            last = (line, right, isHeading)
        }
    }

    /// The paragraphs made so far, soft hyphens left at their ends dropped.
    public func finish() -> [LayoutParagraph] {
        paragraphs.map { paragraph in
            var paragraph = paragraph
            if paragraph.text.last == "\u{00AD}" { paragraph.text.removeLast() }
            return paragraph
        }
    }

    private func startsParagraph(
        _ line: LayoutLine, isHeading: Bool, after last: (line: LayoutLine, right: Double, isHeading: Bool),
        sameRun: Bool, left: Double, spacing: Double
    ) -> Bool {
        let previous = last.line
        if isHeading != last.isHeading { return true }
        let size = max(line.fontSize, previous.fontSize, 1)
        if abs(line.fontSize - previous.fontSize) > size * 0.1 || line.isBold != previous.isBold { return true }
        if sameRun, line.box.y - previous.box.y > spacing * 1.3 { return true }
        if isHeading { return false }
        if line.box.x - left > line.fontSize * 0.7, !(sameRun && Self.continues(line, previous)) { return true }
        return Self.endsShort(previous, right: last.right, before: line)
    }

    /// Whether an indented `line` goes on from `previous`: it starts where `previous` starts (a block quote) or
    /// where its second word starts (a hanging indent under a bullet or number).
    static func continues(_ line: LayoutLine, _ previous: LayoutLine) -> Bool {
        if abs(line.box.x - previous.box.x) < 2 { return true }
        return previous.words.count > 1 && abs(line.box.x - previous.words[1].box.x) < 2
    }

    /// Whether `previous` stopped short: the first word of `next` would have fitted at its end.
    static func endsShort(_ previous: LayoutLine, right: Double, before next: LayoutLine) -> Bool {
        guard let word = next.words.first, let end = previous.text.last, !LineJoiner.hyphens.contains(end),
              end != LineJoiner.softHyphen
        else { return false }
        return right - previous.box.maxX > word.box.width + previous.fontSize * 0.3
    }

    /// The usual distance from one line's top to the next in `run`, between lines of one size.
    static func lineSpacing(of run: [LayoutLine]) -> Double {
        let steps = zip(run, run.dropFirst())
            .filter { abs($0.fontSize - $1.fontSize) <= $0.fontSize * 0.1 }
            .filter { $1.box.y - $0.box.y > $0.fontSize * 0.5 && $1.box.y - $0.box.y < $0.fontSize * 3 }
            .map { $1.box.y - $0.box.y }
            .sorted()
        return steps.isEmpty ? (run.map(\.fontSize).max() ?? 10) * 1.2 : steps[steps.count / 2]
    }

    /// Where most of the run's lines start: its left margin, which an outdented heading or an indented first line
    /// does not move.
    static func margin(of run: [LayoutLine]) -> Double {
        var counts: [Int: Int] = [:]
        for line in run { counts[Int(line.box.x.rounded()), default: 0] += 1 }
        let common = counts.max { ($0.value, -$0.key) < ($1.value, -$1.key) }?.key ?? 0
        // The leftmost start within a point or two of the most common one.
        return run.map(\.box.x).filter { abs($0 - Double(common)) <= 2 }.min() ?? Double(common)
    }
}
