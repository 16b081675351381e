import Foundation
@testable import NarrateData
import NarrateDomain
import Testing

/// What a listener must not hear: boilerplate, licences, contents lists, notes, imprints —
/// found from the book's semantics first, then from shapes.
@Suite struct MatterSkippingTests {
    private func html(_ body: String, includesMatter: Bool = false) throws -> Book {
        let document = """
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Book</title></head>
            <body>\(body)</body></html>
            """
        return try HTMLParser().parse(Data(document.utf8), path: "book.html", options: ParseOptions(includesMatter: includesMatter))
    }

    private func text(_ book: Book) -> String { book.pages.map(\.text).joined(separator: "\n\n") }

    // MARK: - Project Gutenberg

    /// Ebookmaker's EPUB 3 / HTML5 layout (2020s).
    static let ebookmaker = """
        <section class="pg-boilerplate pgheader" id="pg-header" lang="en">
        <h2>The Project Gutenberg eBook of <span>Crusoe</span>, by Daniel Defoe</h2>
        <div>This ebook is for the use of anyone anywhere in the United States.</div>
        <div class="container" id="pg-machine-header"><p><strong>Title</strong>: Crusoe</p><p><strong>Language</strong>: English</p></div>
        <div id="pg-start-separator"><span>*** START OF THE PROJECT GUTENBERG EBOOK CRUSOE ***</span></div>
        </section>
        <h1>Robinson Crusoe</h1>
        <p>I was born in the year 1632, in the city of York.</p>
        <div id="pg-end-separator"><span>*** END OF THE PROJECT GUTENBERG EBOOK CRUSOE ***</span></div>
        <section class="pg-boilerplate pgheader" id="pg-footer" lang="en">
        <h2 id="pg-footer-heading">THE FULL PROJECT GUTENBERG LICENSE</h2>
        <p>PLEASE READ THIS BEFORE YOU DISTRIBUTE OR USE THIS WORK</p>
        </section>
        """

    @Test("Ebookmaker's pg-boilerplate header and footer are skipped and listed")
    func ebookmakerBoilerplate() throws {
        // When
        let book = try html(Self.ebookmaker)

        // Then only the book is read
        #expect(text(book) == "Robinson Crusoe\n\nI was born in the year 1632, in the city of York.")
        #expect(book.skipped.map(\.kind) == [.gutenbergBoilerplate, .gutenbergBoilerplate, .gutenbergBoilerplate])
        #expect(book.skipped.contains { $0.title == "THE FULL PROJECT GUTENBERG LICENSE" })
        #expect(book.skipped.first?.title == "The Project Gutenberg eBook of Crusoe, by Daniel Defoe")
    }

    @Test("--include-matter reads the boilerplate too, and lists nothing as skipped")
    func includeMatter() throws {
        // When
        let book = try html(Self.ebookmaker, includesMatter: true)

        // Then
        #expect(text(book).contains("THE FULL PROJECT GUTENBERG LICENSE"))
        #expect(text(book).contains("This ebook is for the use of anyone"))
        #expect(book.skipped.isEmpty)
    }

    @Test("EpubMaker's pgheader div (2010s) and bare START/END marker paragraphs are skipped")
    func olderLayouts() throws {
        // Given the 2013 EpubMaker layout, and a book whose markers are plain paragraphs
        let epubMaker = try html("""
            <h1>THE VISION OF HELL</h1>
            <div xml:space="preserve" class="pgmonospaced pgheader"><br/>Project Gutenberg's The Vision of Hell<br/><br/>*** START OF THIS PROJECT GUTENBERG EBOOK THE VISION OF HELL ***</div>
            <p>Midway upon the journey of our life.</p>
            """)
        let bare = try html("""
            <p>The Project Gutenberg EBook of Tales, by Someone</p>
            <p>This eBook is for the use of anyone anywhere at no cost.</p>
            <p>*** START OF THIS PROJECT GUTENBERG EBOOK TALES ***</p>
            <h1>Tales</h1><p>Once upon a time.</p><p>The end.</p><p>Really the end.</p>
            <p>End of the Project Gutenberg EBook of Tales</p>
            <p>*** END OF THIS PROJECT GUTENBERG EBOOK TALES ***</p>
            <p>Section 1. General Terms of Use and Redistributing Project Gutenberg-tm electronic works</p>
            """)

        // Then
        #expect(text(epubMaker) == "THE VISION OF HELL\n\nMidway upon the journey of our life.")
        #expect(text(bare) == "Tales\n\nOnce upon a time.\n\nThe end.\n\nReally the end.")
        #expect(bare.skipped.map(\.title) == ["Project Gutenberg header", "Project Gutenberg footer and licence"])
    }

    // MARK: - Notes

    @Test("Gutenberg footnotes: the [1] marker and the note body (classed or only linked back) are not read")
    func gutenbergFootnotes() throws {
        // Given Gutenberg's classes, and the same shape with no classes at all: a marker link and a back-link
        let classed = try html("""
            <p>The clocks struck thirteen.<a id="FNanchor_1_1" href="#Footnote_1_1" class="fnanchor">[1]</a> He went on.</p>
            <p>More story here.</p>
            <div class="footnote"><p><a id="Footnote_1_1" href="#FNanchor_1_1"><span class="label">[1]</span></a> A somewhat remarkable eccentricity on the part of the London clocks!—TRANSLATOR.</p></div>
            """)
        let linkedOnly = try html("""
            <p>The clocks struck thirteen.<a name="FNanchor_2"></a><a href="#Footnote_2"><sup>[2]</sup></a> He went on.</p>
            <p>See <a href="#chapter2">the next chapter</a> for the rest of the story, which is long.</p>
            <h2 id="chapter2">Chapter 2</h2><p>More story here.</p>
            <p><a name="Footnote_2"></a><a href="#FNanchor_2">[2]</a> A somewhat remarkable eccentricity on the part of the London clocks!</p>
            """)

        // Then
        #expect(text(classed) == "The clocks struck thirteen. He went on.\n\nMore story here.")
        #expect(text(linkedOnly).hasPrefix("The clocks struck thirteen. He went on.\n\nSee the next chapter for the rest"))
        #expect(!text(linkedOnly).contains("eccentricity"))
        #expect(!text(linkedOnly).contains("[2]"))
        #expect(linkedOnly.skipped == [SkippedMatter(kind: .notes, title: "Notes", words: 12)])
    }

    // MARK: - Contents lists

    @Test("A contents list (entries that link to the book's chapters) and its heading are skipped")
    func contentsList() throws {
        // Given Gutenberg's paragraph list, and a table with numbers and page columns
        let paragraphs = try html("""
            <h1>A Book</h1>
            <h2>Contents</h2>
            <p> <a href="#chap01" class="pginternal">CHAPTER I—START IN LIFE</a></p>
            <p> <a href="#chap02" class="pginternal">CHAPTER II—SLAVERY AND ESCAPE</a></p>
            <p> <a href="#chap03" class="pginternal">CHAPTER III—WRECKED</a></p>
            <h2 id="chap01">CHAPTER I. START IN LIFE</h2><p>I was born.</p>
            <h2 id="chap02">CHAPTER II. SLAVERY</h2><p>I was taken.</p>
            <h2 id="chap03">CHAPTER III. WRECKED</h2><p>I was wrecked.</p>
            """)
        let table = try html("""
            <h2>TABLE OF CONTENTS</h2>
            <table><tr><td>I.</td><td><a href="#c1">The Storm at Sea and What Followed It</a></td><td>7</td></tr>
            <tr><td>II.</td><td><a href="#c2">The Island</a></td><td>19</td></tr>
            <tr><td>III.</td><td><a href="#c3">Friday</a></td><td>31</td></tr></table>
            <h2 id="c1">The Storm</h2><p>It blew.</p><h2 id="c2">The Island</h2><p>Sand.</p><h2 id="c3">Friday</h2><p>A man.</p>
            """)

        // Then
        #expect(!text(paragraphs).contains("CHAPTER II—SLAVERY"))
        #expect(!text(paragraphs).contains("Contents"))
        #expect(text(paragraphs).hasPrefix("A Book\n\nCHAPTER I. START IN LIFE\n\nI was born."))
        #expect(paragraphs.skipped.map(\.kind) == [.contents])
        #expect(paragraphs.skipped.first?.title == "Contents")
        #expect(paragraphs.chapters.map(\.title) == ["A Book", "CHAPTER I. START IN LIFE", "CHAPTER II. SLAVERY", "CHAPTER III. WRECKED"])
        #expect(text(table).hasPrefix("The Storm\n\nIt blew."))
        #expect(table.skipped.first?.title == "TABLE OF CONTENTS")
    }

    @Test("Prose with a link or two, and two links in a row, are read")
    func linksInProseStay() throws {
        // When
        let book = try html("""
            <h2 id="a">Start</h2>
            <p>As we saw in <a href="#b">the second part</a>, the world is round and nobody disputes it any more.</p>
            <p><a href="#a">Back to the start</a></p>
            <p><a href="#b">On to the end</a></p>
            <h2 id="b">End</h2><p>Fin.</p>
            """)

        // Then
        #expect(text(book).contains("As we saw in the second part"))
        #expect(text(book).contains("Back to the start\n\nOn to the end"))
        #expect(book.skipped.isEmpty)
    }

    // MARK: - EPUB 3 semantics

    /// A Standard Ebooks-shaped EPUB: title page, dedication, a chapter, imprint, colophon, uncopyright.
    static func standardEbooks() throws -> Data {
        func document(_ type: String, _ body: String) -> Data {
            Data("""
                <?xml version="1.0" encoding="utf-8"?>
                <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>x</title></head>
                <body epub:type="\(type.contains("matter") ? type : "bodymatter z3998:fiction")"><section id="s" epub:type="\(type)">\(body)</section></body></html>
                """.utf8)
        }
        let names = ["titlepage", "imprint", "dedication", "chapter-1", "colophon", "uncopyright"]
        let manifest = names.map { #"<item id="\#($0)" href="\#($0).xhtml" media-type="application/xhtml+xml"/>"# }.joined()
            + #"<item id="nav" href="toc.xhtml" properties="nav" media-type="application/xhtml+xml"/>"#
        let spine = names.map { #"<itemref idref="\#($0)"/>"# }.joined()
        let nav = Data("""
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>nav</title></head><body>
            <nav epub:type="toc"><ol>\(names.map { #"<li><a href="\#($0).xhtml">\#($0.capitalized)</a></li>"# }.joined())</ol></nav>
            </body></html>
            """.utf8)
        var entries = EPUBFixture.entries(opf: EPUBFixture.opf(manifest: manifest, spine: spine))
        entries.removeLast()
        entries += [
            ("OEBPS/titlepage.xhtml", document("frontmatter titlepage", "<h1>The Waste Land</h1><p>By T. S. Eliot.</p>")),
            ("OEBPS/imprint.xhtml", document("frontmatter imprint", "<h2>Imprint</h2><p>This ebook is the product of many hours of hard work by volunteers for Standard Ebooks.</p>")),
            ("OEBPS/dedication.xhtml", document("frontmatter dedication", "<p>For Ezra Pound, il miglior fabbro.</p>")),
            ("OEBPS/chapter-1.xhtml", document("chapter", "<h2>The Burial of the Dead</h2><p>April is the cruellest month.</p>")),
            ("OEBPS/colophon.xhtml", document("backmatter colophon", "<h2>Colophon</h2><p>The Waste Land was published in 1922.</p>")),
            ("OEBPS/uncopyright.xhtml", document("backmatter copyright-page", "<h2>Uncopyright</h2><p>May you do good and not evil.</p>")),
            ("OEBPS/toc.xhtml", nav),
        ]
        return try EPUBFixture.archive(entries)
    }

    @Test("Standard Ebooks' imprint, colophon and uncopyright are skipped; the title page and dedication stay")
    func standardEbooksMatter() throws {
        // When
        let book = try EPUBParser().parse(try Self.standardEbooks(), path: "se.epub", options: ParseOptions())

        // Then
        #expect(text(book) == "The Waste Land\n\nBy T. S. Eliot.\n\nFor Ezra Pound, il miglior fabbro.\n\nThe Burial of the Dead\n\nApril is the cruellest month.")
        #expect(book.chapters.map(\.title) == ["Titlepage", "Dedication", "Chapter-1"])
        #expect(book.skipped.map(\.kind) == [.imprint, .colophon, .copyright])
        #expect(book.skipped.map(\.title) == ["Imprint", "Colophon", "Uncopyright"])
    }

    @Test("With --include-matter the imprint is read and is a chapter again")
    func standardEbooksIncludeMatter() throws {
        // When
        let book = try EPUBParser().parse(try Self.standardEbooks(), path: "se.epub", options: ParseOptions(includesMatter: true))

        // Then
        #expect(text(book).contains("volunteers for Standard Ebooks"))
        #expect(book.chapters.count == 6)
        #expect(book.skipped.isEmpty)
    }

    // MARK: - Every corpus book

    static let corpusBooks = [
        "epub/moby-dick.epub", "epub/childrens-literature.epub", "epub/wasteland.epub", "epub/regime-anticancer-arabic.epub",
        "epub/pg8789-dante-vision-of-hell-epub2.epub", "epub/alice3-sigil-broken-nav.epub", "epub/pg521-robinson-crusoe-gutenberg-epub3.epub",
        "txt/pg1342-pride-and-prejudice-cp1252.txt", "txt/pg44157-entre-nous-french-utf8-bom.txt", "txt/pg972-devils-dictionary-1990s-header-ascii.txt",
    ]

    @Test("No corpus book's text holds Gutenberg boilerplate, a licence, a contents list or a note body", arguments: corpusBooks)
    func corpus(name: String) throws {
        // Given
        let file = try Corpus.file(name)

        // When
        let book = try DocumentParserFactory().parse(file.data, path: file.path)
        let all = text(book)

        // Then
        for phrase in ["Project Gutenberg", "PROJECT GUTENBERG", "START OF TH", "END OF TH", "Gutenberg-tm", "FULL LICENSE", "Small Print", "SMALL PRINT"] {
            #expect(!all.contains(phrase), "\(name): \(phrase)")
        }
        // Contents entries as the files print them, and note bodies.
        let absent: [String: [String]] = [
            "epub/pg521-robinson-crusoe-gutenberg-epub3.epub": ["CHAPTER II—SLAVERY AND ESCAPE", "CHAPTER XX—FIGHT BETWEEN FRIDAY"],
            "txt/pg44157-entre-nous-french-utf8-bom.txt": ["Deux Parents et Deux Enfants         7", "Chap.                                  Page."],
            "epub/wasteland.epub": ["Not only the title, but the plan"],
        ]
        for phrase in absent[name] ?? [] {
            #expect(!all.contains(phrase), "\(name): \(phrase)")
        }
        #expect(!book.skipped.isEmpty || name.contains("regime"), "\(name) lists what it skipped")
    }
}
