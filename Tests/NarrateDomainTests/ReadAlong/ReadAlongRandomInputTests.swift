import NarrateDomain
import Testing

/// Content documents come from books nobody here wrote: the tokenizer and the marker must take
/// anything, mangled or not, and only ever add markup.
@Suite struct ReadAlongRandomInputTests {
    static let pieces = ["<p>", "</p>", "<em>", "</em>", "<br/>", "<!-- c -->", "<![CDATA[x<y]]>", "&amp;", "&#x263A;", "é", " ", "\n",
                         "Word.", "Two words", "<span id=\"a\">", "</span>", "<head><title>t</title></head>", "<script>1<2</script>",
                         "<?pi x?>", "<", ">", "\"", "'", "=", "<a href='x'>", "</a>", "\u{0}", "\u{FEFF}"]

    @Test("3,000 random and mangled documents: each is refused or tokenized, and marking any of its text only adds bytes")
    func randomDocuments() {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<3_000 {
            var html = round % 3 == 0 ? "" : "<html><body>"
            for _ in 0..<Int.random(in: 0...40, using: &generator) { html += Self.pieces.randomElement(using: &generator)! }
            if round % 3 != 0 { html += "</body></html>" }
            var bytes = Array(html.utf8)
            if round % 5 == 0, !bytes.isEmpty {
                for _ in 0..<3 { bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            }
            guard let document = XHTMLDocument(bytes: bytes) else { continue }
            var marker = ReadAlongMarker(document: document)
            let count = document.scalars.count
            if count > 0 {
                let start = Int.random(in: 0..<count, using: &generator)
                let end = Int.random(in: start..<count, using: &generator)
                marker.wrap([ReadAlongMarker.Piece(scalars: start...end, id: "s\(round)")])
            }
            #expect(marker.rewritten().count >= bytes.count)
        }
    }
}
