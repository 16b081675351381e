import Foundation
@testable import NarrateData
import NarrateDomain
import Testing

@Suite struct EPUBParserTests {
    let sut = EPUBParser()

    private func parse(_ name: String, wordsPerPage: Int = 300, includesMatter: Bool = false) throws -> Book {
        let file = try Corpus.file("epub/\(name)")
        return try sut.parse(file.data, path: file.path, options: ParseOptions(wordsPerPage: wordsPerPage, includesMatter: includesMatter))
    }

    struct Expected: Sendable, CustomStringConvertible {
        var file: String
        var title: String
        var chapters: Int
        var pages: Int
        var firstPageStart: String
        var description: String { file }
    }

    static let corpus: [Expected] = [
        // The transcriber's notes (marked colophon) and the copyright page are not the book.
        Expected(file: "moby-dick.epub", title: "Moby-Dick", chapters: 138, pages: 742,
                 firstPageStart: "ETYMOLOGY.\n\n(Supplied by a Late Consumptive Usher to a Grammar School)"),
        Expected(file: "childrens-literature.epub", title: "Children's Literature", chapters: 31, pages: 92,
                 firstPageStart: "SECTION IV FAIRY STORIES—MODERN FANTASTIC TALES"),
        Expected(file: "wasteland.epub", title: "The Waste Land", chapters: 5, pages: 13,
                 firstPageStart: "The Waste Land\n\nT.S. Eliot\n\n\"Nam Sibyllam quidem Cumis ego ipse oculis meis"),
        Expected(file: "regime-anticancer-arabic.epub", title: "Le Vrai Régime anti-cancer", chapters: 1, pages: 16,
                 firstPageStart: "الفصل الثاني\n\nما هو السرطان؟"),
        Expected(file: "pg8789-dante-vision-of-hell-epub2.epub",
                 title: "The vision of hell. / By Dante Alighieri. / Translated by Rev. Henry Francis Cary, M.A. / and illustrated with the seventy-five designs of Gustave Doré.",
                 chapters: 45, pages: 148,
                 firstPageStart: "THE VISION OF HELL\n\nLINK TO THE ORIGINAL HTML FILE"),
        Expected(file: "alice3-sigil-broken-nav.epub", title: "Alice's Adventures in Wonderland", chapters: 12, pages: 93,
                 firstPageStart: "Alice's Adventures In Wonderland\n\nby Lewis Carroll"),
    ]

    @Test("every corpus EPUB parses with its title, chapters, pages and first page", arguments: corpus)
    func corpusBook(_ expected: Expected) throws {
        // Given a corpus book
        // When it is parsed
        let book = try parse(expected.file)

        // Then its shape is the one checked by eye
        #expect(book.format == .epub)
        #expect(book.metadata.title == expected.title)
        #expect(book.chapters.count == expected.chapters)
        #expect(book.pages.count == expected.pages)
        #expect(book.pages.first?.text.hasPrefix(expected.firstPageStart) == true, "\(book.pages.first?.text.prefix(120) ?? "")")
        #expect(book.pages.map(\.index) == Array(1...book.pages.count))
        for chapter in book.chapters {
            #expect((1...book.pages.count).contains(chapter.firstPage))
        }
    }

    @Test("parsing is deterministic")
    func deterministic() throws {
        // Given / When the same book parsed twice
        let first = try parse("wasteland.epub")
        let second = try parse("wasteland.epub")

        // Then
        #expect(first == second)
    }

    @Test("children's literature pages are its page list: count and printed labels")
    func pageList() throws {
        // Given the page list of the nav document
        let file = try Corpus.file("epub/childrens-literature.epub")
        let labels = try Self.navPageListLabels(in: file.data)

        // When
        let book = try sut.parse(file.data, path: file.path, options: ParseOptions())

        // Then
        #expect(labels.count == 92)
        #expect(book.pages.map(\.label) == labels)
        #expect(book.pages.first?.label == "169")
        #expect(book.pages.last?.label == "260")
        // The page-break markers' own text ("170") is not read
        #expect(book.pages.allSatisfy { !$0.text.hasPrefix($0.label) })
    }

    @Test("the Waste Land's note references and note bodies are not read")
    func wastelandNotes() throws {
        // Given / When
        let book = try parse("wasteland.epub")
        let text = book.pages.map(\.text).joined(separator: "\n\n")

        // Then: no note bodies…
        #expect(!text.contains("Ezekiel"))
        #expect(!text.contains("Miss Jessie L. Weston"))
        #expect(!text.contains("Tarot pack"))
        #expect(!text.contains("NOTES ON"))
        #expect(!text.contains("Line 20"))
        // …no note markers or margin line numbers after the verse
        #expect(!text.contains("*"))
        #expect(text.contains("Out of this stony rubbish? Son of man,\n\n"))
        #expect(text.contains("And went on in sunlight, into the Hofgarten,\n\n"))
        // …and the poem itself is there, line by line
        #expect(text.contains("April is the cruellest month, breeding\n\nLilacs out of the dead land, mixing"))
        #expect(book.chapters.map(\.title) == [
            "I. THE BURIAL OF THE DEAD", "II. A GAME OF CHESS", "III. THE FIRE SERMON", "IV. DEATH BY WATER",
            "V. WHAT THE THUNDER SAID",
        ])
    }

    @Test("Moby-Dick: cover image bytes, 138 chapters; the transcriber's notes (marked colophon) and their footnote not read")
    func mobyDick() throws {
        // Given / When
        let book = try parse("moby-dick.epub")
        let everything = try parse("moby-dick.epub", includesMatter: true)

        // Then
        let cover = try #require(book.cover)
        #expect(cover.mediaType == "image/jpeg")
        #expect(cover.data.starts(with: [0xFF, 0xD8, 0xFF]))
        #expect(book.chapters.count == 138)
        #expect(everything.chapters.count == 140)
        #expect(book.chapters.contains { $0.title == "Chapter 1. Loomings." })
        #expect(book.metadata.authors == ["Herman Melville"])
        #expect(!book.pages.contains { $0.text.contains("a unit of currency") })
        #expect(book.skipped.map(\.kind) == [.contents, .colophon, .copyright, .contents])
        #expect(everything.pages.contains { $0.text.contains("a capital L for the symbol for the British pound, a unit of currency.") })
        // A chapter starts a page
        let loomings = try #require(book.chapters.first { $0.title == "Chapter 1. Loomings." })
        #expect(book.pages[loomings.firstPage - 1].text.hasPrefix("Chapter 1. Loomings.") || book.pages[loomings.firstPage - 1].text.hasPrefix("CHAPTER 1"))
        #expect(book.pages[loomings.firstPage - 1].chapterIndex == book.chapters.firstIndex(of: loomings))
    }

    @Test("Dante: chapters from the EPUB 2 NCX, three depth levels")
    func danteNCX() throws {
        // Given / When
        let book = try parse("pg8789-dante-vision-of-hell-epub2.epub")

        // Then
        #expect(Set(book.chapters.map(\.depth)) == [0, 1, 2])
        #expect(book.chapters.first == Chapter(title: "THE VISION OF HELL", depth: 0, firstPage: 1))
        #expect(book.chapters.contains { $0.title == "OF" && $0.depth == 2 })
        #expect(book.chapters.contains { $0.title == "CANTO XXXIV" && $0.depth == 1 })
        #expect(book.metadata.language == "en")
        #expect(book.cover?.mediaType == "image/jpeg")
    }

    @Test("alice3: the broken nav gives way to the NCX (declared text/xml) with real titles")
    func aliceNCX() throws {
        // Given / When
        let book = try parse("alice3-sigil-broken-nav.epub")

        // Then
        #expect(book.chapters.first?.title == "I. Down the Rabbit-Hole")
        #expect(book.chapters.last?.title == "XII. Alice's Evidence")
        #expect(book.chapters.allSatisfy { $0.depth == 0 })
        let first = try #require(book.chapters.first)
        #expect(book.pages[first.firstPage - 1].text.hasPrefix("Chapter I\n\nDown the Rabbit-Hole\n\nAlice was beginning"))
    }

    @Test("the Arabic book states its language as ar")
    func arabic() throws {
        let book = try parse("regime-anticancer-arabic.epub")
        #expect(book.metadata.language == "ar")
        #expect(book.cover != nil)
    }

    @Test("smaller pages give more pages; chapters still start pages")
    func wordsPerPage() throws {
        // Given / When
        let book = try parse("wasteland.epub", wordsPerPage: 100)

        // Then
        #expect(book.pages.count > 13)
        for (index, chapter) in book.chapters.enumerated() {
            #expect(book.pages[chapter.firstPage - 1].text.hasPrefix(chapter.title))
            #expect(book.pages[chapter.firstPage - 1].chapterIndex == index)
        }
    }

    // MARK: - Damaged files from the corpus

    static let badFiles: [(String, @Sendable (String) -> BookError)] = [
        ("zip-truncated-no-central-directory.epub", { .notAZipArchive(path: $0) }),
        ("zip-empty-0-bytes.epub", { .emptyFile(path: $0) }),
        ("mimetype-wrong-value.epub", { .wrongMimetype(path: $0, found: "application/something+else") }),
        ("container-xml-missing.epub", { .missingContainer(path: $0) }),
        ("opf-malformed-xml.epub", {
            .malformedXML(path: $0, entry: "EPUB/package.opf", reason: "an end tag does not match its start tag, line 4, column 25")
        }),
        ("opf-no-spine-epub2.epub", { .missingSpine(path: $0) }),
    ]

    @Test("each damaged corpus EPUB gives its own error", arguments: badFiles.map(\.0))
    func badEPUB(_ name: String) throws {
        // Given
        let file = try Corpus.file("bad-epub/\(name)")
        let expected = try #require(Self.badFiles.first { $0.0 == name }?.1(file.path))

        // When / Then
        #expect(throws: expected) {
            try sut.parse(file.data, path: file.path, options: ParseOptions())
        }
        #expect(!expected.description.isEmpty)
    }

    // MARK: - Hostile archives built in memory

    @Test("an entry named ../evil is refused")
    func pathTraversal() throws {
        // Given
        let data = try EPUBFixture.archive(EPUBFixture.minimalEntries + [("../evil", Data("x".utf8))])

        // When / Then
        #expect(throws: BookError.unsafeEntryPath(path: "evil.epub", entry: "../evil")) {
            try sut.parse(data, path: "evil.epub", options: ParseOptions())
        }
    }

    @Test("an absolute entry name is refused")
    func absolutePath() throws {
        let data = try EPUBFixture.archive(EPUBFixture.minimalEntries + [("/etc/passwd", Data("x".utf8))])
        #expect(throws: BookError.unsafeEntryPath(path: "abs.epub", entry: "/etc/passwd")) {
            try sut.parse(data, path: "abs.epub", options: ParseOptions())
        }
    }

    @Test("a reference leaving the container (a ../ spine item) is refused")
    func hrefTraversal() throws {
        // Given a package document whose only spine item climbs above the root
        let opf = EPUBFixture.opf(manifest: #"<item id="c1" href="../../outside.xhtml" media-type="application/xhtml+xml"/>"#, spine: #"<itemref idref="c1"/>"#)
        let data = try EPUBFixture.archive(EPUBFixture.entries(opf: opf))

        // When / Then
        #expect(throws: BookError.unsafeEntryPath(path: "x.epub", entry: "../../outside.xhtml")) {
            try sut.parse(data, path: "x.epub", options: ParseOptions())
        }
    }

    @Test("duplicate entry names are refused")
    func duplicates() throws {
        let data = try EPUBFixture.archive(EPUBFixture.minimalEntries + [("OEBPS/c1.xhtml", Data("<html/>".utf8))])
        #expect(throws: BookError.duplicateEntry(path: "dup.epub", entry: "OEBPS/c1.xhtml")) {
            try sut.parse(data, path: "dup.epub", options: ParseOptions())
        }
    }

    @Test("an entry larger than the limit is refused (declared size)")
    func zipBombDeclared() throws {
        // Given a 2 MiB entry of zeros (a few KiB compressed) and a 1 MiB entry limit
        let bomb = Data(count: 2 * 1_048_576)
        let data = try EPUBFixture.archive(EPUBFixture.minimalEntries + [("OEBPS/bomb.xhtml", bomb)])
        let parser = EPUBParser(limits: ArchiveLimits(maxEntrySize: 1_048_576, maxTotalSize: 8 * 1_048_576))

        // When / Then
        #expect(throws: BookError.entryTooLarge(path: "bomb.epub", entry: "OEBPS/bomb.xhtml", limit: 1_048_576)) {
            try parser.parse(data, path: "bomb.epub", options: ParseOptions())
        }
    }

    @Test("an entry whose header lies about its size is stopped while it is read")
    func zipBombLyingHeader() throws {
        // Given a chapter that inflates to 2 MiB but whose headers claim 100 bytes
        var chapter = Data(EPUBFixture.chapterXHTML.utf8)
        chapter.append(Data(repeating: 0x20, count: 2 * 1_048_576))
        var data = try EPUBFixture.archive(EPUBFixture.entries(chapter: chapter))
        EPUBFixture.patchUncompressedSize(in: &data, entry: "OEBPS/c1.xhtml", to: 100)
        let parser = EPUBParser(limits: ArchiveLimits(maxEntrySize: 1_048_576, maxTotalSize: 8 * 1_048_576))

        // When / Then
        #expect(throws: BookError.entryTooLarge(path: "liar.epub", entry: "OEBPS/c1.xhtml", limit: 1_048_576)) {
            try parser.parse(data, path: "liar.epub", options: ParseOptions())
        }
    }

    @Test("entries larger in total than the book limit are refused")
    func zipBombTotal() throws {
        let entries = EPUBFixture.minimalEntries + (1...4).map { ("OEBPS/pad\($0).bin", Data(count: 600_000)) }
        let data = try EPUBFixture.archive(entries)
        let parser = EPUBParser(limits: ArchiveLimits(maxEntrySize: 1_048_576, maxTotalSize: 2 * 1_048_576))
        #expect(throws: BookError.archiveTooLarge(path: "big.epub", limit: 2 * 1_048_576)) {
            try parser.parse(data, path: "big.epub", options: ParseOptions())
        }
    }

    @Test("a directory entry whose local header offset lies past the file's end is refused, not a crash")
    func localHeaderPastTheEnd() throws {
        var data = try EPUBFixture.archive(EPUBFixture.minimalEntries)
        EPUBFixture.patchDirectoryField(in: &data, entry: "OEBPS/c1.xhtml", offset: 42, to: 0x7FFF_FFF0)

        #expect(throws: BookError.damagedEntry(path: "far.epub", entry: "OEBPS/c1.xhtml", reason: "its header lies outside the file")) {
            try sut.parse(data, path: "far.epub", options: ParseOptions())
        }
    }

    @Test("a directory entry whose compressed size runs past the file's end is refused")
    func dataPastTheEnd() throws {
        var data = try EPUBFixture.archive(EPUBFixture.minimalEntries)
        EPUBFixture.patchDirectoryField(in: &data, entry: "OEBPS/c1.xhtml", offset: 20, to: 0x7FFF_0000)

        #expect(throws: BookError.damagedEntry(path: "long.epub", entry: "OEBPS/c1.xhtml", reason: "its data lies outside the file")) {
            try sut.parse(data, path: "long.epub", options: ParseOptions())
        }
    }

    @Test("random byte flips anywhere give a book or a BookError, never a crash")
    func byteFlips() throws {
        let original = [UInt8](try EPUBFixture.archive(EPUBFixture.minimalEntries))
        var generator = SeededGenerator(seed: 42)
        for _ in 0..<400 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            _ = try? sut.parse(Data(bytes), path: "flipped.epub", options: ParseOptions())
        }
    }

    @Test("every single corrupted byte of a deflated chapter gives a book or a BookError at once, never a hang")
    func corruptDeflateStreams() throws {
        // Given: the archive, and where the chapter's compressed data lies
        let original = try EPUBFixture.archive(EPUBFixture.minimalEntries)
        let chapter = try #require(try ZIPLayout.entries(original, path: "x.epub").first { $0.name == "OEBPS/c1.xhtml" })
        try #require(chapter.method == 8)
        let started = ContinuousClock.now

        // When: each byte of it replaced, in turn, by its complement and by zero
        for offset in chapter.dataStart..<(chapter.dataStart + chapter.compressedSize) {
            for replacement in [~original[offset], 0] {
                var bytes = original
                bytes[offset] = replacement
                _ = try? sut.parse(bytes, path: "corrupt.epub", options: ParseOptions())
            }
        }

        // Then: all of them finished (a loop would never get here)
        #expect(ContinuousClock.now - started < .seconds(60))
    }

    @Test("50,000 nested elements in the package document or container are refused with the reason, not a stack overflow")
    func deepNesting() throws {
        let deep = String(repeating: "<a>", count: 50_000) + String(repeating: "</a>", count: 50_000)
        let opf = EPUBFixture.opf().replacingOccurrences(of: "</metadata>", with: deep + "</metadata>")
        let data = try EPUBFixture.archive(EPUBFixture.entries(opf: opf))

        let error = #expect(throws: BookError.self) { try sut.parse(data, path: "deep.epub", options: ParseOptions()) }

        #expect(error?.description.contains("nested more than 256 deep") == true, "\(String(describing: error))")
        let container = #"<?xml version="1.0"?><container xmlns="urn:oasis:names:tc:opendocument:xmlns:container" version="1.0">"# + deep + "</container>"
        var entries = EPUBFixture.minimalEntries
        if let index = entries.firstIndex(where: { $0.0 == "META-INF/container.xml" }) { entries[index].1 = Data(container.utf8) }
        #expect(throws: BookError.self) { try sut.parse(try EPUBFixture.archive(entries), path: "deep2.epub", options: ParseOptions()) }
    }

    @Test("a chapter declaring an encoding libxml2 cannot be trusted with (EBCDIC) is read leniently, not a crash")
    func ebcdicDeclaration() throws {
        let chapter = #"<?xml version="1.0" encoding="EBCDIC-US"?><html xmlns="http://www.w3.org/1999/xhtml"><body><p>Plain words here.</p></body></html>"#
        let data = try EPUBFixture.archive(EPUBFixture.entries(chapter: Data(chapter.utf8)))

        let book = try sut.parse(data, path: "ebcdic.epub", options: ParseOptions())

        #expect(book.pages.first?.text.contains("Plain words here.") == true)
    }

    @Test("an entity expansion bomb is not expanded: the chapter is read at once")
    func entityBomb() throws {
        let big = String(repeating: "x", count: 1_000_000)
        let references = String(repeating: "&big;", count: 100_000)
        let chapter = #"<?xml version="1.0"?><!DOCTYPE html [<!ENTITY big ""# + big + #"">]><html xmlns="http://www.w3.org/1999/xhtml"><body><p>Start. "# + references + " End.</p></body></html>"
        let data = try EPUBFixture.archive(EPUBFixture.entries(chapter: Data(chapter.utf8)))
        let started = ContinuousClock.now

        let book = try? sut.parse(data, path: "bomb.epub", options: ParseOptions())

        #expect(ContinuousClock.now - started < .seconds(20))
        #expect(book.map { $0.pages.map(\.text).joined().count < 10_000_000 } ?? true)
    }

    @Test("an unresolved external entity does not swallow the text after it")
    func externalEntity() throws {
        let chapter = #"<?xml version="1.0"?><!DOCTYPE html [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><html xmlns="http://www.w3.org/1999/xhtml"><body><p>SECRET[&xxe;] and the words after it.</p></body></html>"#
        let data = try EPUBFixture.archive(EPUBFixture.entries(chapter: Data(chapter.utf8)))

        let book = try sut.parse(data, path: "xxe.epub", options: ParseOptions())

        let text = book.pages.map(\.text).joined(separator: " ")
        #expect(text.contains("and the words after it."))
        #expect(!text.contains("root:"))
    }

    @Test("a package document declaring an encoding other than UTF-8/16 is refused, with the reason")
    func packageEncoding() throws {
        let opf = EPUBFixture.opf().replacingOccurrences(of: #"<?xml version="1.0" encoding="UTF-8"?>"#, with: #"<?xml version="1.0" encoding="EBCDIC-US"?>"#)
        try #require(opf.contains("EBCDIC-US"))
        let data = try EPUBFixture.archive(EPUBFixture.entries(opf: opf))

        let error = #expect(throws: BookError.self) { try sut.parse(data, path: "opf.epub", options: ParseOptions()) }

        #expect(error?.description.contains("EBCDIC-US") == true, "\(String(describing: error))")
    }

    @Test("an XML error says what is wrong and where, in words, never a bare libxml2 number")
    func xmlErrorsInWords() {
        for (code, _) in XMLTreeError.descriptions {
            let reason = XMLTreeError(NSError(domain: "NSXMLParserErrorDomain", code: code), line: 3, column: 7).reason
            #expect(!reason.contains("error \(code)"), "\(code): \(reason)")
            #expect(reason.hasSuffix(", line 3, column 7"))
        }
        #expect(XMLTreeError(NSError(domain: "NSXMLParserErrorDomain", code: 89), line: 1).reason == "an entity refers to itself (an entity loop), line 1")
    }

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

    // MARK: - Helpers

    /// The labels of the nav document's page list, read with a plain scan of the markup.
    static func navPageListLabels(in epub: Data) throws -> [String] {
        let nav = try EPUBFixture.entry("EPUB/nav.xhtml", in: epub)
        guard let start = nav.range(of: "epub:type=\"page-list\"") else { return [] }
        let end = nav.range(of: "</nav>", range: start.upperBound..<nav.endIndex)?.lowerBound ?? nav.endIndex
        var labels: [String] = []
        var rest = nav[start.upperBound..<end]
        while let open = rest.range(of: "<a href=\""), let close = rest.range(of: "</a>", range: open.upperBound..<rest.endIndex) {
            guard let tagEnd = rest.range(of: ">", range: open.upperBound..<close.lowerBound) else { break }
            labels.append(rest[tagEnd.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines))
            rest = rest[close.upperBound...]
        }
        return labels
    }
}
