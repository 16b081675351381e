@testable import NarrateData
import NarrateDomain
import Testing

@Suite struct MatterCaptureTests {
    private var sut = MatterCapture()

    @Test("Given matter with a heading, when it is read through, then it is listed with the heading as its title and its words")
    mutating func listsMatterWithItsHeading() {
        // Given
        sut.begin(.gutenbergBoilerplate)
        let takesHeading = sut.beginsTitle(atElement: "h2")
        #expect(takesHeading)
        sut.append("  The   Full ")
        sut.append("Licence\n")
        sut.endTitle()

        // When
        sut.append(" You may copy it.")
        sut.end()

        // Then
        #expect(sut.skipped == [SkippedMatter(kind: .gutenbergBoilerplate, title: "The Full Licence", words: 7)])
        #expect(!sut.isCapturing)
    }

    @Test("Given matter whose first heading is taken, when a second heading starts, then it is not taken as the title")
    mutating func onlyTheFirstHeading() {
        sut.begin(.imprint)
        let takesFirst = sut.beginsTitle(atElement: "h1")
        #expect(takesFirst)
        sut.append("Imprint")
        sut.endTitle()

        let takesSecond = sut.beginsTitle(atElement: "h2")
        #expect(!takesSecond)
        let takesParagraph = sut.beginsTitle(atElement: "p")
        #expect(!takesParagraph)
    }

    @Test("Given notes and empty matter, when they end, then notes are only counted and empty matter is not listed")
    mutating func countsNotes() {
        // Given
        sut.begin(.notes)
        sut.append("A remarkable eccentricity.")
        sut.end()
        sut.begin(.notes)
        sut.append("Ibid.")
        sut.end()

        // When
        sut.begin(.colophon)
        sut.append("   ")
        sut.end()

        // Then
        #expect(sut.notes == (count: 2, words: 4))
        #expect(sut.skipped.isEmpty)
    }

    @Test("Given ids inside and outside matter, when registered, then only those inside (or beginning it) are matter targets")
    mutating func targets() {
        sut.register("a.xhtml#before", isMatter: false)
        sut.register("a.xhtml#toc", isMatter: true)
        sut.begin(.contents)
        sut.register("a.xhtml#entry", isMatter: false)

        #expect(sut.targets == ["a.xhtml#toc", "a.xhtml#entry"])
    }

    @Test("Given matter listed after a checkpoint, when rolled back, then the list, the note count and the document's targets are as before")
    mutating func rollback() {
        // Given
        sut.begin(.gutenbergBoilerplate)
        sut.append("Kept licence")
        sut.end()
        sut.register("a.xhtml#kept", isMatter: true)
        let checkpoint = sut.checkpoint()
        sut.begin(.notes)
        sut.append("Dropped note")
        sut.end()
        sut.begin(.imprint)
        sut.append("Dropped imprint")
        sut.end()
        sut.register("b.xhtml#dropped", isMatter: true)

        // When
        sut.rollback(to: checkpoint, document: "b.xhtml")

        // Then
        #expect(sut.skipped.map(\.title) == ["Kept licence"])
        #expect(sut.notes == (count: 0, words: 0))
        #expect(sut.targets == ["a.xhtml#kept"])
    }
}
