@testable import NarrateData
import NarrateDomain
import Testing

@Suite struct ReadAlongEPUBBuilderTests {
    @Test("hrefs between entries climb out of the folder and are percent-encoded")
    func relativeHrefs() {
        #expect(EPUBPath.relativeHref(from: "EPUB/narrate/smil", to: "EPUB/text/001.xhtml#nr-s1") == "../../text/001.xhtml#nr-s1")
        #expect(EPUBPath.relativeHref(from: "OPS", to: "OPS/ch 1.xhtml") == "ch%201.xhtml")
        #expect(EPUBPath.relativeHref(from: "", to: "8789/@x@1.htm.xhtml") == "8789/@x@1.htm.xhtml")
    }

    @Test("EPUB 2 documents not named .xhtml get that extension, never a name already taken")
    func xhtmlNames() {
        // Given
        let items = [
            ReadAlongSource.Item(id: "a", entry: "OPS/a.html", href: "a.html", mediaType: "application/xhtml+xml", properties: []),
            ReadAlongSource.Item(id: "b", entry: "OPS/b.htm.html", href: "b.htm.html", mediaType: "application/xhtml+xml", properties: []),
            ReadAlongSource.Item(id: "c", entry: "OPS/c.xhtml", href: "c.xhtml", mediaType: "application/xhtml+xml", properties: []),
            ReadAlongSource.Item(id: "c2", entry: "OPS/c.html", href: "c.html", mediaType: "application/xhtml+xml", properties: []),
            ReadAlongSource.Item(id: "s", entry: "OPS/s.css", href: "s.css", mediaType: "text/css", properties: []),
        ]

        // When
        let names = ReadAlongEPUBBuilder.xhtmlNames(items)

        // Then
        #expect(names == ["OPS/a.html": "OPS/a.xhtml", "OPS/b.htm.html": "OPS/b.htm.xhtml", "OPS/c.html": "OPS/c-2.xhtml"])
    }

    @Test("links to a renamed document follow it; others are left alone")
    func renamedLinks() {
        let link = ReadAlongEPUBBuilder.renamedLink(from: "OPS/text/a.xhtml", renames: ["OPS/text/b.html": "OPS/text/b.xhtml"])

        #expect(link("b.html#note-1") == "b.xhtml#note-1")
        #expect(link("../images/b.html.jpg") == nil)
        #expect(link("https://example.org/b.html") == nil)
    }

    @Test("publication dates are kept only in the W3C form EPUB 3 asks for")
    func dates() {
        #expect(ReadAlongEPUBBuilder.w3cDate("2004-08-07") == "2004-08-07")
        #expect(ReadAlongEPUBBuilder.w3cDate("1865") == "1865")
        #expect(ReadAlongEPUBBuilder.w3cDate("August 1865") == nil)
    }
}
