import Foundation
@testable import NarrateData
import NarrateDomain
import Testing

@Suite struct PDFWireDecoderTests {
    func decode(_ records: [String]) throws(PDFWireError) -> PDFWireDocument {
        try PDFWireDecoder.decode(Data((["narrate-pdf\t1"] + records).joined(separator: "\n").utf8 + [0x0A]))
    }

    @Test("pages, lines and words come back with their boxes, sizes and boldness; the outline and metadata too")
    func wholeDocument() throws {
        // Given
        let records = [
            "meta\ttitle\tA Small Book", "meta\tauthor\tJane Austen", "meta\tlanguage\ten-GB",
            "outline\t0\t1\t64.35\tThe First Chapter", "outline\t1\t2\t-\tA Section",
            "page\t1\t419.56\t595.30\ti", "line", "word\t42.60\t64.20\t37.93\t23.40\t18.00\t1\tThe",
            "word\t86.75\t64.20\t47.47\t23.40\t18.00\t1\tFirst", "line", "word\t42.6\t90\t20\t11\t9\t0\tText.",
            "page\t2\t419.56\t595.30\t", "image\t2", "end\t2\t2",
        ]

        // When
        let document = try decode(records)

        // Then
        #expect(document.title == "A Small Book")
        #expect(document.author == "Jane Austen")
        #expect(document.language == "en-GB")
        #expect(document.layout.outline == [
            LayoutOutlineEntry(title: "The First Chapter", depth: 0, page: 1, top: 64.35),
            LayoutOutlineEntry(title: "A Section", depth: 1, page: 2, top: nil),
        ])
        #expect(document.layout.pages.map(\.label) == ["i", nil])
        #expect(document.layout.pages[0].lines.map(\.text) == ["The First", "Text."])
        #expect(document.layout.pages[0].lines[0].isBold)
        #expect(document.layout.pages[0].lines[0].words[1].box == LayoutBox(x: 86.75, y: 64.20, width: 47.47, height: 23.40))
        #expect(document.imagePages == [2])
        #expect(document.pageCount == 2)
        #expect(document.error == nil)
    }

    @Test("an error record is kept with its code and message")
    func errorRecord() throws {
        // When
        let document = try decode(["error\tpassword-required\tthe document is encrypted"])

        // Then
        #expect(document.error?.code == "password-required")
        #expect(document.error?.message == "the document is encrypted")
        #expect(document.pageCount == nil)
    }

    @Test("another version of the reader is refused by its first line")
    func wrongVersion() {
        #expect(throws: PDFWireError.wrongVersion(found: "narrate-pdf\t2")) {
            try PDFWireDecoder.decode(Data("narrate-pdf\t2\nend\t0\t0\n".utf8))
        }
        #expect(throws: PDFWireError.wrongVersion(found: "")) { try PDFWireDecoder.decode(Data()) }
    }

    @Test("records out of place, numbers out of reach and unknown records are refused with their line",
          arguments: [
              ["word\t1\t2\t3\t4\t5\t0\tLost"],
              ["line"],
              ["page\t1\t100\t100\t", "line", "word\tnan\t2\t3\t4\t5\t0\tNaN"],
              ["page\t1\t100\t100\t", "line", "word\t1e300\t2\t3\t4\t5\t0\tFar"],
              ["page\t1\t100\t100\t", "line", "word\t1\t2\t3\t4\t5\t7\tBold?"],
              ["page\t2\t100\t100\t", "page\t1\t100\t100\t"],
              ["page\t9999999\t100\t100\t"],
              ["outline\t99\t1\t-\tToo deep"],
              ["surprise"],
          ])
    func malformed(records: [String]) {
        #expect(throws: PDFWireError.self) { try decode(records) }
    }

    @Test("lines without words are dropped")
    func emptyLines() throws {
        let document = try decode(["page\t1\t100\t100\t", "line", "line", "word\t1\t2\t3\t4\t5\t0\tOne", "end\t1\t1"])
        #expect(document.layout.pages[0].lines.count == 1)
    }
}
