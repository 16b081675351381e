import NarrateDomain
import Testing

@Suite struct ReadAlongMarkerTests {
    /// `html` with the pieces (found by `ReadAlongAligner`) wrapped in spans s1, s2, ….
    private func marked(_ html: String, _ pieces: [String]) throws -> String {
        let document = try #require(XHTMLDocument(bytes: Array(html.utf8)))
        var aligner = ReadAlongAligner(documents: [document.scalars])
        var marker = ReadAlongMarker(document: document)
        for (index, piece) in pieces.enumerated() {
            let found = aligner.next(piece)
            let match = try #require(found)
            marker.wrap([ReadAlongMarker.Piece(scalars: match.scalars, id: "s\(index + 1)")])
        }
        return String(decoding: marker.rewritten(), as: UTF8.self)
    }

    @Test("a sentence inside one text node is wrapped where it is, the text around it untouched")
    func oneTextNode() throws {
        // Given
        let html = "<html><body><p>One here. Two  there.</p></body></html>"

        // When
        let result = try marked(html, ["One here.", "Two there."])

        // Then
        #expect(result == "<html><body><p><span id=\"s1\">One here.</span> <span id=\"s2\">Two  there.</span></p></body></html>")
    }

    @Test("a sentence across inline elements is one span holding them")
    func acrossInlineElements() throws {
        let html = "<html><body><p><em>Yes,</em> he <a href=\"x.xhtml\">said</a>. Then <b>left.</b></p></body></html>"

        let result = try marked(html, ["Yes, he said.", "Then left."])

        #expect(result == "<html><body><p><span id=\"s1\"><em>Yes,</em> he <a href=\"x.xhtml\">said</a>.</span> <span id=\"s2\">Then <b>left.</b></span></p></body></html>")
    }

    @Test("a piece across a block boundary is wrapped fragment by fragment, the first with the id")
    func acrossBlocks() throws {
        let html = "<html><body><div>Alpha <div>beta</div></div></body></html>"

        let result = try marked(html, ["Alpha beta"])

        #expect(result == "<html><body><div><span id=\"s1\">Alpha </span><div><span>beta</span></div></div></body></html>")
        #expect(XHTMLDocument(bytes: Array(result.utf8)) != nil)
    }

    @Test("text that was not spoken (a page number, the head) stays unwrapped; entities stay as written")
    func unspoken() throws {
        let html = "<html><head><title>Said</title></head><body><p>Fish &amp; chips, <span class=\"pagenum\">[12]</span>he said.</p></body></html>"

        let result = try marked(html, ["Fish & chips, he said."])

        #expect(result == "<html><head><title>Said</title></head><body><p><span id=\"s1\">Fish &amp; chips, <span class=\"pagenum\">[12]</span>he said.</span></p></body></html>")
    }

    @Test("a stylesheet is linked at the end of the head")
    func stylesheet() throws {
        let document = try #require(XHTMLDocument(bytes: Array("<html><head><title>T</title></head><body/></html>".utf8)))
        var marker = ReadAlongMarker(document: document)

        marker.linkStylesheet("../narrate/readalong.css")

        #expect(String(decoding: marker.rewritten(), as: UTF8.self)
            == "<html><head><title>T</title><link rel=\"stylesheet\" type=\"text/css\" href=\"../narrate/readalong.css\"/></head><body/></html>")
    }

    @Test("an EPUB 2 document gets the HTML5 DOCTYPE, loses what HTML5 lacks, and links to renamed documents")
    func upgrade() throws {
        // Given
        let html = """
            <?xml version="1.0"?><!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd">\
            <html><head><style xml:space="preserve">p {}</style></head>\
            <body><img src="a.jpg" width="50%" height="20"/><a href="ch2.html#n">next</a></body></html>
            """
        let document = try #require(XHTMLDocument(bytes: Array(html.utf8)))
        var marker = ReadAlongMarker(document: document)

        // When
        marker.upgradeToEPUB3 { $0.hasPrefix("ch2.html") ? "ch2.xhtml#n" : nil }

        // Then
        #expect(String(decoding: marker.rewritten(), as: UTF8.self) == """
            <?xml version="1.0"?><!DOCTYPE html>\
            <html><head><style>p {}</style></head>\
            <body><img src="a.jpg" height="20"/><a href="ch2.xhtml#n">next</a></body></html>
            """)
    }

    @Test("a document whose tags do not nest is not read")
    func malformed() {
        #expect(XHTMLDocument(bytes: Array("<html><p><b>x</p></b></html>".utf8)) == nil)
    }

    @Test("an id the document already has is not given again")
    func ids() {
        #expect(ReadAlongMarker.id(prefix: "nr-s", number: 3, avoiding: ["nr-s3"]) == "nr-s3-1")
        #expect(ReadAlongMarker.id(prefix: "nr-s", number: 4, avoiding: ["nr-s3"]) == "nr-s4")
    }
}
