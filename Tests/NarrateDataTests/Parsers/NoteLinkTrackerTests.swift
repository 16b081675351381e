@testable import NarrateData
import Testing

@Suite struct NoteLinkTrackerTests {
    private var sut = NoteLinkTracker()

    private static func block(_ text: String, links: [(start: Int, end: Int, target: String)]) -> BlockCollector.RawBlock {
        BlockCollector.RawBlock(text: text, links: links.map { BlockCollector.LinkSpan(start: $0.start, end: $0.end, target: $0.target, ownKey: nil) })
    }

    @Test("Given a note element and an id inside it, when they are registered, then both are note targets and others are not")
    mutating func targetsInsideNotes() {
        // Given
        sut.beginDocument()
        sut.register("a.xhtml#n1", isNote: true, isSkipping: false)
        sut.enterNote()
        sut.register("a.xhtml#inner", isNote: false, isSkipping: true)
        sut.leaveNote()

        // When
        sut.register("a.xhtml#after", isNote: false, isSkipping: true)
        sut.register("a.xhtml#text", isNote: false, isSkipping: false)

        // Then
        #expect(sut.isNoteTarget("a.xhtml#n1"))
        #expect(sut.isNoteTarget("a.xhtml#inner"))
        #expect(!sut.isNoteTarget("a.xhtml#after"))
        #expect(!sut.isNoteTarget("a.xhtml#text"))
        #expect(sut.depth == 0)
    }

    @Test("Given a document of notes with no readable block, when it ends, then every link into it is a note link")
    mutating func noteDocuments() {
        // Given
        sut.beginDocument()
        sut.enterNote()
        sut.leaveNote()

        // When
        sut.endDocument("notes.xhtml", isEmpty: true)
        sut.beginDocument()
        sut.enterNote()
        sut.leaveNote()
        sut.endDocument("chapter.xhtml", isEmpty: false)

        // Then
        #expect(sut.isNoteTarget("notes.xhtml#n7"))
        #expect(sut.isNoteTarget("notes.xhtml"))
        #expect(!sut.isNoteTarget("chapter.xhtml#n7"))
    }

    @Test("Given a block with a link to a note, a marker link and a plain link, when note links are removed, then only the plain link's text stays")
    mutating func removesNoteLinks() {
        // Given
        sut.register("a.xhtml#n1", isNote: true, isSkipping: false)
        let block = Self.block("Call me[1] Ishmael[2] at home.", links: [
            (7, 10, "a.xhtml#n1"), (18, 21, "a.xhtml#m2"), (25, 29, "b.xhtml"),
        ])

        // When
        let text = sut.removingNoteLinks(from: block, rawIndex: 4, markers: [MatterFilter.LinkID(block: 4, link: 1)])

        // Then
        #expect(text == "Call me Ishmael at home.")
    }

    @Test("Given a block whose links lead nowhere near a note, when note links are removed, then the text is unchanged")
    func keepsOtherLinks() {
        let block = Self.block("See chapter two.", links: [(4, 15, "b.xhtml")])

        #expect(sut.removingNoteLinks(from: block, rawIndex: 0, markers: []) == "See chapter two.")
    }
}
