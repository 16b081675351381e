import NarrateDomain
import Testing

@Suite struct ReadingOrderTests {
    @Test("two columns are read left column first, whatever order the lines come in")
    func twoColumns() {
        // Given
        let left = LayoutPageMaker.lines(["left one", "left two", "left three"], x: 72)
        let right = LayoutPageMaker.lines(["right one", "right two", "right three"], x: 320)
        let lines = zip(left, right).flatMap { [$0.1, $0.0] }

        // When
        let runs = ReadingOrder.runs(of: lines, fontSize: 10)

        // Then
        #expect(runs.map { $0.map(\.text) } == [["left one", "left two", "left three"], ["right one", "right two", "right three"]])
    }

    @Test("a title across both columns is read first, a full-width line below them last")
    func spanningLines() {
        // Given
        let title = LayoutLine(text: Array(repeating: "Title", count: 11).joined(separator: " "), x: 72, y: 90, fontSize: 10)
        let left = LayoutPageMaker.lines(["left one is long", "left two is long", "left three"], x: 72)
        let right = LayoutPageMaker.lines(["right one is long", "right two is long", "right three"], x: 320)
        let foot = LayoutLine(text: Array(repeating: "Foot", count: 13).joined(separator: " "), x: 72, y: 200, fontSize: 10)

        // When
        let runs = ReadingOrder.runs(of: [foot] + right + left + [title], fontSize: 10)

        // Then
        #expect(runs.map { $0.first?.text.prefix(5) } == ["Title", "left ", "right", "Foot "])
    }

    @Test("a larger heading over the left column that reaches into the gutter does not hide the columns below it")
    func headingIntoGutter() {
        // Given full-width text, a 14-point heading wider than the left column, then two columns
        let above = LayoutPageMaker.lines(["full width text that runs right across the page body", "and a second line across the whole page width too"], x: 72, top: 60)
        let heading = LayoutLine(text: "Visit Returns", x: 72, y: 100, fontSize: 14)
        let left = LayoutPageMaker.lines(["left one is long", "left two is long", "left three"], x: 72)
        let right = LayoutPageMaker.lines(["right one is long", "right two is long", "right three"], x: 170)

        // When
        let runs = ReadingOrder.runs(of: right + left + [heading] + above, fontSize: 10)

        // Then
        let texts = runs.flatMap { $0.map(\.text) }
        #expect(texts.firstIndex(of: "left three")! < texts.firstIndex(of: "right one is long")!)
        #expect(texts.firstIndex(of: "Visit Returns")! < texts.firstIndex(of: "left one is long")!)
    }

    @Test("a side note in the margin is read after the text beside it, not inside it")
    func sideNote() {
        // Given
        let text = LayoutPageMaker.lines((1...6).map { "main text line number \($0) of the page body" }, x: 72)
        let note = LayoutPageMaker.lines(["A side", "note"], x: 400, top: 134)

        // When
        let runs = ReadingOrder.runs(of: note + text, fontSize: 10)

        // Then
        #expect(runs.count == 2)
        #expect(runs[0].count == 6)
        #expect(runs[1].map(\.text) == ["A side", "note"])
    }

    @Test("a short line above a right-aligned one is not taken for a column")
    func notColumns() {
        // Given
        let lines = [
            LayoutLine(text: "Dear Sir,", x: 72, y: 100, fontSize: 10),
            LayoutLine(text: "London, May 1888", x: 400, y: 130, fontSize: 10),
        ]

        // When
        let runs = ReadingOrder.runs(of: lines, fontSize: 10)

        // Then
        #expect(runs.map { $0.map(\.text) } == [["Dear Sir,", "London, May 1888"]])
    }
}

extension ReadingOrderTests {
    @Test("pieces of one justified line that a reader cut at wide spaces are one line again")
    func cutLine() {
        // Given
        let pieces = [
            LayoutLine(text: "when", x: 72, y: 100, fontSize: 10), LayoutLine(text: "he", x: 110, y: 100, fontSize: 10),
            LayoutLine(text: "was tempted", x: 140, y: 100, fontSize: 10),
        ]
        let next = LayoutLine(text: "by an accidental recommendation", x: 72, y: 114, fontSize: 10)

        // When
        let runs = ReadingOrder.runs(of: [next] + pieces, fontSize: 10)

        // Then
        #expect(runs.map { $0.map(\.text) } == [["when he was tempted", "by an accidental recommendation"]])
    }
}
