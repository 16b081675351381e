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

    @Test("publication dates are kept only in the W3C form EPUB 3 asks for")
    func dates() {
        #expect(ReadAlongEPUBBuilder.w3cDate("2004-08-07") == "2004-08-07")
        #expect(ReadAlongEPUBBuilder.w3cDate("1865") == "1865")
        #expect(ReadAlongEPUBBuilder.w3cDate("August 1865") == nil)
    }
}
