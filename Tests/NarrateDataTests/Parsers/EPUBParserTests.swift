import Foundation
@testable import NarrateData
import NarrateDomain
import Testing

@Suite struct EPUBParserTests {
    let sut = EPUBParser()

    func parse(_ name: String, wordsPerPage: Int = 300, includesMatter: Bool = false) throws -> Book {
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
