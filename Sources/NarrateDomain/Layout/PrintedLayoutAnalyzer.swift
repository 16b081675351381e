/// Turns the positioned lines of a printed document (a PDF) into the text a listener hears: running heads and
/// page numbers left out, footnotes set aside as notes, columns read in order, lines joined into paragraphs and
/// chapters found.
public enum PrintedLayoutAnalyzer {
    /// Reads `document`.
    public static func analyze(_ document: LayoutDocument) -> LayoutResult {
        let running = RunningLineFilter.runningLines(in: document.pages)
        let kept = document.pages.enumerated().map { index, page in
            page.lines.enumerated().filter { !running[index].contains($0.offset) && !$0.element.words.isEmpty }.map(\.element)
        }
        let bodySize = bodyFontSize(kept.flatMap { $0 })
        let ends = kept.flatMap { $0.map(\.box.maxX) }.sorted()
        var builder = ParagraphBuilder(
            vocabulary: LayoutVocabulary(lines: kept.flatMap { $0.map(\.text) }),
            textRight: ends.isEmpty ? 0 : ends[ends.count * 9 / 10]
        )
        var notes: [LayoutNote] = []
        for (index, page) in document.pages.enumerated() {
            let (body, pageNotes) = FootnoteSplitter.split(kept[index], page: page, bodySize: bodySize)
            notes += pageNotes
            for (position, run) in ReadingOrder.runs(of: body, fontSize: bodySize).enumerated() {
                let headings = position == 0 ? headingCount(run, bodySize: bodySize, pageHeight: page.height) : 0
                builder.add(run: run, page: page.number, headings: headings)
            }
        }
        let paragraphs = builder.finish()
        return LayoutResult(
            paragraphs: paragraphs,
            chapters: ChapterFinder.chapters(outline: document.outline, paragraphs: paragraphs),
            notes: notes,
            removedRunningLines: running.reduce(0) { $0 + $1.count }
        )
    }

    /// The size most of the text is set in.
    public static func bodyFontSize(_ lines: [LayoutLine]) -> Double {
        var weights: [Double: Int] = [:]
        for word in lines.flatMap(\.words) {
            weights[(word.fontSize * 2).rounded() / 2, default: 0] += word.text.count
        }
        return weights.max { ($0.value, -$0.key) < ($1.value, -$1.key) }?.key ?? 10
    }

    /// How many of a page's first lines are a heading: larger than the body text, or short and bold, in the upper
    /// half of the page.
    static func headingCount(_ run: [LayoutLine], bodySize: Double, pageHeight: Double) -> Int {
        run.prefix { line in
            line.box.y < pageHeight * 0.5
                && (line.fontSize >= bodySize * 1.15 || (line.isBold && line.words.count <= 12))
        }.count
    }
}
