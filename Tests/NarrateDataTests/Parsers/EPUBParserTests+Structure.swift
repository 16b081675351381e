import Foundation
@testable import NarrateData
import NarrateDomain
import Testing

extension EPUBParserTests {
    // MARK: - Broken structure and synthetic books

    @Test("data that is not a ZIP is refused")
    func notZip() {
        #expect(throws: BookError.notAZipArchive(path: "a.epub")) {
            try sut.parse(Data("just some text".utf8), path: "a.epub", options: ParseOptions())
        }
    }

    @Test("a spine item missing from the manifest is named")
    func spineItemMissing() throws {
        let opf = EPUBFixture.opf(manifest: #"<item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/>"#, spine: #"<itemref idref="c1"/><itemref idref="ghost"/>"#)
        let data = try EPUBFixture.archive(EPUBFixture.entries(opf: opf))
        #expect(throws: BookError.spineItemNotInManifest(path: "g.epub", idref: "ghost")) {
            try sut.parse(data, path: "g.epub", options: ParseOptions())
        }
    }

    @Test("a container.xml pointing to a missing package document is named")
    func missingPackage() throws {
        let entries = EPUBFixture.minimalEntries.filter { $0.0 != "OEBPS/content.opf" }
        let data = try EPUBFixture.archive(entries)
        #expect(throws: BookError.missingPackageDocument(path: "m.epub", packagePath: "OEBPS/content.opf")) {
            try sut.parse(data, path: "m.epub", options: ParseOptions())
        }
    }

    @Test("a book without text says so")
    func noText() throws {
        let chapter = Data(#"<html xmlns="http://www.w3.org/1999/xhtml"><head><title>T</title></head><body><img src="a.png" alt="An image"/></body></html>"#.utf8)
        let data = try EPUBFixture.archive(EPUBFixture.entries(chapter: chapter))
        #expect(throws: BookError.noText(path: "n.epub")) {
            try sut.parse(data, path: "n.epub", options: ParseOptions())
        }
    }

    @Test("a synthetic book: blocks, notes, page breaks and a spine-titled chapter")
    func syntheticBlocks() throws {
        // Given a chapter with inline markup, a note, a list, verse with <br/>, a table and page breaks
        let chapter = Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">
            <head><title>Doc title</title><style>p { color: red }</style><script>var x = 1;</script></head>
            <body>
            <span epub:type="pagebreak" title="xii"/>
            <h1>The   <em>First</em> Chapter</h1>
            <p>Some   <b>bold</b>
               text<a href="#n1" epub:type="noteref">1</a> and a <a href="#n2">[2]</a> link.</p>
            <ul><li>one</li><li>two</li></ul>
            <div class="poem"><p>Line one<br/>Line two</p></div>
            <span role="doc-pagebreak" aria-label="xiii"></span>
            <table><tr><td>cell A</td><td>cell B</td></tr></table>
            <blockquote>Quoted.</blockquote>
            <nav><p>Navigation text</p></nav>
            <aside epub:type="footnote" id="n1"><p>Footnote body.</p></aside>
            <section epub:type="endnotes"><p id="n2">Endnote body.</p></section>
            </body></html>
            """.utf8)
        let data = try EPUBFixture.archive(EPUBFixture.entries(chapter: chapter))

        // When
        let book = try sut.parse(data, path: "synthetic.epub", options: ParseOptions())

        // Then
        #expect(book.metadata.title == "Fixture Book")
        #expect(book.metadata.language == "fr-ca")
        #expect(book.chapters == [Chapter(title: "The First Chapter", depth: 0, firstPage: 1)])
        #expect(book.pages.map(\.label) == ["xii", "xiii"])
        #expect(book.pages.first?.text == "The First Chapter\n\nSome bold text and a link.\n\none\n\ntwo\n\nLine one\n\nLine two")
        #expect(book.pages.last?.text == "cell A\n\ncell B\n\nQuoted.")
        #expect(book.pages.allSatisfy { $0.chapterIndex == 0 })
    }

    @Test("a TOC fragment starts its chapter at that element, on a new page")
    func fragmentChapters() throws {
        // Given one document with two sections and a nav pointing at the second one's id
        let chapter = Data("""
            <html xmlns="http://www.w3.org/1999/xhtml"><head><title>x</title></head><body>
            <section><h2>Part one</h2><p>Alpha text.</p></section>
            <section id="two"><h2>Part two</h2><p>Beta text.</p></section>
            </body></html>
            """.utf8)
        let nav = Data("""
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>nav</title></head><body>
            <nav epub:type="toc"><ol><li><a href="c1.xhtml">Part   one</a><ol><li><a href="c1.xhtml#two">Part two</a></li></ol></li></ol></nav>
            </body></html>
            """.utf8)
        let opf = EPUBFixture.opf(
            manifest: #"<item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/><item id="nav" href="nav.xhtml" properties="nav" media-type="application/xhtml+xml"/>"#,
            spine: #"<itemref idref="c1"/>"#)
        let data = try EPUBFixture.archive(EPUBFixture.entries(opf: opf, chapter: chapter) + [("OEBPS/nav.xhtml", nav)])

        // When
        let book = try sut.parse(data, path: "frag.epub", options: ParseOptions())

        // Then
        #expect(book.chapters == [
            Chapter(title: "Part one", depth: 0, firstPage: 1), Chapter(title: "Part two", depth: 1, firstPage: 2),
        ])
        #expect(book.pages.map(\.text) == ["Part one\n\nAlpha text.", "Part two\n\nBeta text."])
        #expect(book.pages.map(\.chapterIndex) == [0, 1])
    }

    @Test("children's literature: chapters sharing printed pages 174 and 175 start at their own text")
    func chaptersSharingAPrintedPage() throws {
        // Given
        let book = try parse("childrens-literature.epub")

        // When
        let chapters = Array(book.chapters[3...7])
        let starts = try chapters.map { chapter in
            let page = try #require(book.pages.first { $0.index == chapter.firstPage })
            let scalars = Array(page.text.unicodeScalars)
            let atBlockStart = chapter.textOffset == 0 || scalars[(chapter.textOffset - 2)..<chapter.textOffset] == ["\n", "\n"]
            #expect(atBlockStart, "\(chapter.title)")
            return "\(page.label): " + String(String.UnicodeScalarView(scalars[chapter.textOffset...].prefix(24)))
        }

        // Then the author heading (an entry without a link of its own) starts where its first story does,
        // and each story starts at its own heading, also in the middle of a page
        #expect(chapters.map(\.title) == [
            "Abram S. Isaacs", "190 A FOUR-LEAVED CLOVER", "I. The Rabbi and the Diadem", "II. Friendship",
            "III. True Charity",
        ])
        #expect(starts == [
            "174: 190\n\nThe rabbis of old w",
            "174: 190\n\nThe rabbis of old w",
            "174: 1. The Rabbi and The Dia",
            "175: 2. Friendship\n\nA certain",
            "175: 3. True Charity\n\nThere l",
        ])
        #expect(chapters[2].textOffset > 0 && chapters[4].textOffset > chapters[3].textOffset)
        let pageChapters = book.pages.filter { ["174", "175", "176"].contains($0.label) }.map(\.chapterIndex)
        #expect(pageChapters == [4, 5, 7], "each page belongs to the chapter at its top")
    }

    @Test("children's literature: chapters 1-4 plan 4 files; chapters 4, 5, 6 each a file titled after itself")
    func childrensLiteratureChapterSelections() throws {
        // Given
        let book = try parse("childrens-literature.epub")

        // When
        let firstFour = try ExportPlanner.plan(book: book, split: .chapter, selection: .chapters(1...4))
        let single = try (4...6).map { try ExportPlanner.plan(book: book, split: .chapter, selection: .chapters($0...$0)) }

        // Then
        #expect(firstFour.map(\.title) == [
            "SECTION IV FAIRY STORIES—MODERN FANTASTIC TALES", "BIBLIOGRAPHY", "INTRODUCTORY", "Abram S. Isaacs",
        ])
        #expect(single.map { $0.map(\.title) } == [["Abram S. Isaacs"], ["190 A FOUR-LEAVED CLOVER"], ["I. The Rabbi and the Diadem"]])
        let texts = single.map { ExportChunker.text(of: $0[0]) }
        // 4 and 5 start at one element of the book (the author heading has no link of its own), so they hold the
        // same text; 6 is its own.
        #expect(texts[0] == texts[1])
        #expect(texts[1].hasPrefix("190\n\nThe rabbis of old") && texts[1].hasSuffix("ABRAM S. ISAACS"))
        #expect(texts[2].hasPrefix("1. The Rabbi and The Diadem") && !texts[2].contains("2. Friendship"))
    }

    @Test("a chapter that starts inside a print page has the offset of its first block in that page's text")
    func chapterInsideAPrintPage() throws {
        // Given a print page holding the end of one section and the whole of the next, which the TOC points at
        let chapter = Data("""
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>x</title></head><body>
            <span epub:type="pagebreak" id="p1" title="1"/>
            <h2>Élan</h2><p>First part.</p>
            <h2 id="two">Second</h2><p>Second part.</p>
            </body></html>
            """.utf8)
        let nav = Data("""
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>nav</title></head><body>
            <nav epub:type="toc"><ol><li><a href="c1.xhtml">Élan</a></li><li><a href="c1.xhtml#two">Second</a></li></ol></nav>
            </body></html>
            """.utf8)
        let opf = EPUBFixture.opf(
            manifest: #"<item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/><item id="nav" href="nav.xhtml" properties="nav" media-type="application/xhtml+xml"/>"#,
            spine: #"<itemref idref="c1"/>"#)
        let data = try EPUBFixture.archive(EPUBFixture.entries(opf: opf, chapter: chapter) + [("OEBPS/nav.xhtml", nav)])

        // When
        let book = try sut.parse(data, path: "inside.epub", options: ParseOptions())

        // Then
        #expect(book.pages.map(\.text) == ["Élan\n\nFirst part.\n\nSecond\n\nSecond part."])
        #expect(book.chapters == [
            Chapter(title: "Élan", depth: 0, firstPage: 1, textOffset: 0),
            Chapter(title: "Second", depth: 0, firstPage: 1, textOffset: 19),
        ])
    }
}
