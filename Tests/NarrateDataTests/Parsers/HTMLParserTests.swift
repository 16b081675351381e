import Foundation
import NarrateData
import NarrateDomain
import Testing

@Suite struct HTMLParserTests {
    let sut = HTMLParser()

    @Test("lenient HTML: unclosed <p>, <br>, entities, scripts; chapters from h1/h2")
    func lenientHTML() throws {
        // Given HTML that is not XML
        let html = """
            <!DOCTYPE html>
            <HTML><head><title>My  Story</title><meta charset=utf-8><style>p{}</style></head>
            <body>
            <script>document.write("<p>not text</p>")</script>
            <h1>Part&nbsp;One</h1>
            <p>First paragraph &amp; more &mdash; text
            <p>Second<br>line two
            <h2 class=x>Chapter <i>A</i></h2>
            <p>Caf&eacute; &#233;t&#xE9; &unknown; <img src=a.png alt="picture"> end
            <ul><li>item one<li>item two</ul>
            <nav><a href="#">Home</a></nav>
            </body></html>
            """

        // When
        let book = try sut.parse(Data(html.utf8), path: "/books/story.html", options: ParseOptions())

        // Then
        #expect(book.format == .html)
        #expect(book.metadata.title == "My Story")
        #expect(book.chapters == [
            Chapter(title: "Part One", depth: 0, firstPage: 1), Chapter(title: "Chapter A", depth: 1, firstPage: 2),
        ])
        #expect(book.pages.map(\.text) == [
            "Part One\n\nFirst paragraph & more — text\n\nSecond\n\nline two",
            "Chapter A\n\nCafé été &unknown; end\n\nitem one\n\nitem two",
        ])
        #expect(book.pages.map(\.chapterIndex) == [0, 1])
    }

    @Test("without <title> the first h1, else the file name, is the title")
    func titleFallback() throws {
        let withHeading = try sut.parse(Data("<h1>Heading</h1><p>Text".utf8), path: "a/b.htm", options: ParseOptions())
        let bare = try sut.parse(Data("<p>Just text".utf8), path: "a/notes.htm", options: ParseOptions())
        #expect(withHeading.metadata.title == "Heading")
        #expect(bare.metadata.title == "notes")
        #expect(bare.chapters.isEmpty)
        #expect(bare.pages.first?.chapterIndex == nil)
    }

    @Test("HTML without text and empty files are errors")
    func noText() {
        #expect(throws: BookError.noText(path: "e.html")) {
            try sut.parse(Data("<html><body><img src=x></body></html>".utf8), path: "e.html", options: ParseOptions())
        }
        #expect(throws: BookError.emptyFile(path: "z.html")) {
            try sut.parse(Data(), path: "z.html", options: ParseOptions())
        }
    }
}

@Suite struct MarkupWhitespaceTests {
    @Test("HTML text folds spaces and drops invisible characters by the same rule as text normalization")
    func sameRuleAsNormalizer() throws {
        // Given
        let text = "a\u{200B}b c\u{2060}d e\u{00AD}f\u{FEFF}g\u{00A0}h\u{3000}i"
        let html = "<html><body><p>\(text)</p></body></html>"

        // When
        let book = try HTMLParser().parse(Data(html.utf8), path: "w.html", options: ParseOptions())

        // Then
        #expect(book.pages.first?.text == TextNormalizer.normalize(text))
        #expect(book.pages.first?.text == "ab cd efg h i")
    }
}
