import NarrateDomain
import Testing

@Suite struct PrintedLayoutAnalyzerTests {
    /// A book page: a running head, a heading when it opens a chapter, body lines and a page number.
    private func page(_ number: Int, heading: String? = nil, body: [String]) -> LayoutPage {
        var lines = LayoutPageMaker.lines(body, top: 150)
        if let heading { lines.append(LayoutLine(text: heading, x: 220, y: 100, fontSize: 18, isBold: true)) }
        lines.append(LayoutLine(text: "A TALE OF TESTS", x: 240, y: 40, fontSize: 9))
        lines.append(LayoutLine(text: "\(number + 10)", x: 295, y: 760, fontSize: 9))
        return LayoutPage(number: number, width: 600, height: 800, lines: lines)
    }

    private var pages: [LayoutPage] {
        [
            page(1, heading: "The Start", body: ["First chapter words."]),
            page(2, body: ["More of the first chapter."]),
            page(3, heading: "The End", body: ["Second chapter words."]),
        ]
    }

    @Test("without an outline, headings at the top of pages make the chapters, and no running line is read")
    func headings() {
        // When
        let result = PrintedLayoutAnalyzer.analyze(LayoutDocument(pages: pages))

        // Then
        #expect(result.paragraphs.map(\.text) == [
            "The Start", "First chapter words.", "More of the first chapter.", "The End", "Second chapter words.",
        ])
        #expect(result.chapters == [
            LayoutChapter(title: "The Start", paragraphIndex: 0), LayoutChapter(title: "The End", paragraphIndex: 3),
        ])
        #expect(result.removedRunningLines == 6)
    }

    @Test("an outline names the chapters and places them at its destinations")
    func outline() {
        // Given
        let outline = [
            LayoutOutlineEntry(title: "Part One", page: 1, top: 100),
            LayoutOutlineEntry(title: "Later on", depth: 1, page: 2, top: 150),
        ]

        // When
        let result = PrintedLayoutAnalyzer.analyze(LayoutDocument(pages: pages, outline: outline))

        // Then
        #expect(result.chapters == [
            LayoutChapter(title: "Part One", paragraphIndex: 0), LayoutChapter(title: "Later on", depth: 1, paragraphIndex: 2),
        ])
    }

    @Test("a document with neither outline nor headings has no chapters: it is one")
    func oneChapter() {
        // Given
        let ends = ["First words.", "Then others came.", "The last ones."]
        let plain = zip(1..., ends).map { page($0, body: ["A line of the page that runs from margin to margin", $1]) }

        // When
        let result = PrintedLayoutAnalyzer.analyze(LayoutDocument(pages: plain))

        // Then
        #expect(result.chapters.isEmpty)
        #expect(result.paragraphs.count == 3)
    }
}
