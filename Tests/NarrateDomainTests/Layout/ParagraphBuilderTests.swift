import NarrateDomain
import Testing

@Suite struct ParagraphBuilderTests {
    private let first = "It was a dark and stormy night and the rain fell in torrents except at occasional intervals when"
    private let second = "Meanwhile the house stood still."

    @Test("lines of one paragraph are joined, and a short last line ends it")
    func shortLastLine() {
        // Given
        var sut = ParagraphBuilder()
        let lines = LayoutPageMaker.wrap(first + " it was checked.", width: 40) + [second]

        // When
        sut.add(run: LayoutPageMaker.lines(lines), page: 1)

        // Then
        #expect(sut.finish().map(\.text) == [first + " it was checked.", second])
    }

    @Test("an indented line or extra space above starts a paragraph")
    func indentAndSpace() {
        // Given
        var sut = ParagraphBuilder()
        let wrapped = LayoutPageMaker.wrap(first, width: 40)
        var lines = LayoutPageMaker.lines(wrapped)
        lines.append(LayoutLine(text: "An indented opening", x: 90, y: 120 + Double(wrapped.count) * 14, fontSize: 10))
        lines += LayoutPageMaker.lines(["After a gap"], top: 120 + Double(wrapped.count + 2) * 14)

        // When
        sut.add(run: lines, page: 1)

        // Then
        #expect(sut.finish().map(\.text) == [first, "An indented opening", "After a gap"])
    }

    @Test("a paragraph runs on into the next column and the next page")
    func acrossRuns() {
        // Given
        var sut = ParagraphBuilder()
        let wrapped = LayoutPageMaker.wrap(first + " it was over.", width: 40)

        // When
        sut.add(run: LayoutPageMaker.lines(Array(wrapped.prefix(2))), page: 1)
        sut.add(run: LayoutPageMaker.lines(Array(wrapped.dropFirst(2))), page: 2)

        // Then
        #expect(sut.finish() == [LayoutParagraph(text: first + " it was over.", page: 1, top: 120)])
    }

    @Test("a heading at the top of a page is a paragraph of its own")
    func heading() {
        // Given
        var sut = ParagraphBuilder()
        let lines = [LayoutLine(text: "CHAPTER ONE", x: 200, y: 100, fontSize: 16, isBold: true)] + LayoutPageMaker.lines([second])

        // When
        sut.add(run: lines, page: 4, headings: 1)

        // Then
        #expect(sut.finish() == [
            LayoutParagraph(text: "CHAPTER ONE", page: 4, top: 100, isHeading: true),
            LayoutParagraph(text: second, page: 4, top: 120),
        ])
    }
}
