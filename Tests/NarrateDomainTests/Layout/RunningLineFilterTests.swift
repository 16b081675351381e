import NarrateDomain
import Testing

@Suite struct RunningLineFilterTests {
    private func bookPage(_ number: Int, head: Bool = true) -> LayoutPage {
        var page = LayoutPageMaker.page(number, ["Body text of page \(number) goes here.", "More words \(number * 7) here."])
        if head { page.lines.append(LayoutLine(text: "THE SIGN OF FOUR \(number + 40)", x: 200, y: 40, fontSize: 9)) }
        page.lines.append(LayoutLine(text: "\(number)", x: 295, y: 760, fontSize: 9))
        return page
    }

    @Test("a running head with a varying page number and a page-number foot are found on every page")
    func headsAndFeet() {
        // Given
        let pages = (1...5).map { bookPage($0) }

        // When
        let running = RunningLineFilter.runningLines(in: pages)

        // Then
        #expect(running == Array(repeating: [2, 3], count: 5))
    }

    @Test("a chapter's first page without a head loses only its page number")
    func chapterOpening() {
        // Given
        let pages = [bookPage(1, head: false)] + (2...5).map { bookPage($0) }

        // When
        let running = RunningLineFilter.runningLines(in: pages)

        // Then
        #expect(running[0] == [2])
        #expect(running[1] == [2, 3])
    }

    @Test("body lines near the top that differ from page to page are kept")
    func bodyKept() {
        // Given
        let pages = (1...4).map { number in
            LayoutPage(number: number, width: 600, height: 800, lines: [
                LayoutLine(text: "A first line about the \(["sea", "sky", "hill", "road"][number - 1])", x: 72, y: 50, fontSize: 10),
                LayoutLine(text: ["and then", "so it went", "but not", "when she"][number - 1], x: 72, y: 64, fontSize: 10),
            ])
        }

        // When
        let running = RunningLineFilter.runningLines(in: pages)

        // Then
        #expect(running.allSatisfy { $0.isEmpty })
    }
}
