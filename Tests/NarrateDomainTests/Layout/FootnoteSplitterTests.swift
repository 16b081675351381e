import NarrateDomain
import Testing

@Suite struct FootnoteSplitterTests {
    /// "He wrote it down" with a small raised "1" glued to "down".
    private func markedLine(y: Double) -> LayoutLine {
        var line = LayoutLine(text: "He wrote it down", x: 72, y: y, fontSize: 10)
        let down = line.words[3].box
        line.words.append(LayoutWord(text: "1", box: LayoutBox(x: down.maxX, y: y - 3, width: 3.5, height: 7), fontSize: 7))
        line.words += LayoutLine(text: "and left.", x: down.maxX + 8.5, y: y, fontSize: 10).words
        return line
    }

    @Test("small numbered text at the foot of a page is a note, not body")
    func footnoteAtFoot() {
        // Given
        var page = LayoutPage(number: 3, width: 600, height: 800, lines: [
            LayoutLine(text: "Body text on the page.", x: 72, y: 120, fontSize: 10),
            markedLine(y: 134),
            LayoutLine(text: "1 See the letter of the", x: 72, y: 700, fontSize: 8),
            LayoutLine(text: "twelfth of May.", x: 72, y: 710, fontSize: 8),
            LayoutLine(text: "2 Never sent.", x: 72, y: 720, fontSize: 8),
        ])
        // "He wrote it down¹ and left.²"
        page.lines[1].words.append(LayoutWord(text: "2", box: LayoutBox(x: 205.5, y: 131, width: 3.5, height: 7), fontSize: 7))

        // When
        let (body, notes) = FootnoteSplitter.split(page.lines, page: page, bodySize: 10)

        // Then
        #expect(body.map(\.text) == ["Body text on the page.", "He wrote it down and left."])
        #expect(notes == [
            LayoutNote(page: 3, marker: "1", text: "See the letter of the twelfth of May."),
            LayoutNote(page: 3, marker: "2", text: "Never sent."),
        ])
    }

    @Test("small numbered lines at the foot that no mark in the body points to stay in the body")
    func unlinkedNumbersKept() {
        // Given
        let page = LayoutPage(number: 2, width: 600, height: 800, lines: [
            LayoutLine(text: "Body text.", x: 72, y: 120, fontSize: 10),
            LayoutLine(text: "69 63 00 0a 5b", x: 72, y: 700, fontSize: 8),
        ])

        // When
        let (body, notes) = FootnoteSplitter.split(page.lines, page: page, bodySize: 10)

        // Then
        #expect(body.map(\.text) == ["Body text.", "69 63 00 0a 5b"])
        #expect(notes.isEmpty)
    }

    @Test("small text at the foot without a mark, as a caption, stays in the body")
    func captionKept() {
        // Given
        let page = LayoutPage(number: 1, width: 600, height: 800, lines: [
            LayoutLine(text: "Body text.", x: 72, y: 120, fontSize: 10),
            LayoutLine(text: "Figure: the house at night", x: 72, y: 700, fontSize: 8),
        ])

        // When
        let (body, notes) = FootnoteSplitter.split(page.lines, page: page, bodySize: 10)

        // Then
        #expect(body.count == 2)
        #expect(notes.isEmpty)
    }

    @Test("a number of body size that is part of the sentence is kept")
    func ordinaryNumberKept() {
        // Given
        let line = LayoutLine(text: "He was 12 years old and ¹", x: 72, y: 100, fontSize: 10)

        // When
        let cleaned = FootnoteSplitter.droppingNoteMarks(line)

        // Then
        #expect(cleaned.text == "He was 12 years old and")
    }
}
