@testable import NarrateData
import Testing

@Suite struct XHTMLRenamingTests {
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
        let names = XHTMLRenaming.xhtmlNames(items)

        // Then
        #expect(names == ["OPS/a.html": "OPS/a.xhtml", "OPS/b.htm.html": "OPS/b.htm.xhtml", "OPS/c.html": "OPS/c-2.xhtml"])
    }

    @Test("links to a renamed document follow it; others are left alone")
    func renamedLinks() {
        let link = XHTMLRenaming.renamedLink(from: "OPS/text/a.xhtml", renames: ["OPS/text/b.html": "OPS/text/b.xhtml"])

        #expect(link("b.html#note-1") == "b.xhtml#note-1")
        #expect(link("../images/b.html.jpg") == nil)
        #expect(link("https://example.org/b.html") == nil)
    }
}
