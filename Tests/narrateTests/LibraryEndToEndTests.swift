import Foundation
import Testing

/// The book library as a user meets it, on every corpus book.
@Suite("Library, end to end")
struct LibraryEndToEndTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    /// Runs narrate with the library in the test's folder.
    private func narrate(_ arguments: [String], stdin: Data? = nil) async throws -> ProcessResult {
        try await NarrateProcess.narrate(arguments, in: folder.url, environment: ["NARRATE_LIBRARY": folder.path("library.sqlite"), "NARRATE_CACHE_DIR": folder.path("cache")])
    }

    private func json(_ arguments: [String]) async throws -> Any {
        let result = try await narrate(arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return try JSONSerialization.jsonObject(with: result.stdout)
    }

    struct Expected: Sendable, CustomStringConvertible {
        var file: String
        var title: String
        var chapters: Int
        var pages: Int
        var firstPageStart: String
        var description: String { file }
    }

    static let books: [Expected] = [
        Expected(file: "epub/alice3-sigil-broken-nav.epub", title: "Alice's Adventures in Wonderland", chapters: 12, pages: 93, firstPageStart: "Alice's Adventures In Wonderland"),
        Expected(file: "epub/childrens-literature.epub", title: "Children's Literature", chapters: 31, pages: 92, firstPageStart: "SECTION IV FAIRY STORIES"),
        Expected(file: "epub/moby-dick.epub", title: "Moby-Dick", chapters: 138, pages: 742, firstPageStart: "ETYMOLOGY."),
        Expected(file: "epub/pg8789-dante-vision-of-hell-epub2.epub", title: "The vision of hell.", chapters: 45, pages: 148, firstPageStart: "THE VISION OF HELL"),
        Expected(file: "epub/regime-anticancer-arabic.epub", title: "Le Vrai Régime anti-cancer", chapters: 1, pages: 16, firstPageStart: "الفصل الثاني"),
        Expected(file: "epub/wasteland.epub", title: "The Waste Land", chapters: 5, pages: 13, firstPageStart: "The Waste Land\n\nT.S. Eliot"),
        Expected(file: "txt/pg1342-pride-and-prejudice-cp1252.txt", title: "Pride and Prejudice", chapters: 1, pages: 425, firstPageStart: "[Illustration:"),
        Expected(file: "txt/pg44157-entre-nous-french-utf8-bom.txt", title: "Entre Nous", chapters: 1, pages: 57, firstPageStart: "Au lecteur."),
        Expected(file: "txt/pg972-devils-dictionary-1990s-header-ascii.txt", title: "pg972-devils-dictionary-1990s-header-ascii", chapters: 1, pages: 205, firstPageStart: "The Internet Wiretap 1st Online Edition"),
    ]

    @Test("Every corpus book imports with its title, chapters, pages and first page", arguments: books)
    func importsCorpusBook(book: Expected) async throws {
        // Given
        let path = try NarrateProcess.corpusFile(book.file)

        // When
        let added = try await narrate(["add", path])
        let shown = try #require(try await json(["show", "1", "--json"]) as? [String: Any])
        let firstPage = try await narrate(["text", "1", "1"])

        // Then
        #expect(added.status == 0, "\(added.stderr)")
        #expect((shown["title"] as? String)?.hasPrefix(book.title) == true, "\(shown["title"] ?? "")")
        #expect(shown["chapterCount"] as? Int == book.chapters)
        #expect(shown["pageCount"] as? Int == book.pages)
        #expect(String(decoding: firstPage.stdout, as: UTF8.self).hasPrefix(book.firstPageStart))
    }

    @Test("Importing the same file twice gives the same book")
    func duplicateImport() async throws {
        let path = try NarrateProcess.corpusFile("epub/wasteland.epub")
        #expect(try await narrate(["add", path]).status == 0)
        let again = try await narrate(["add", path])
        #expect(again.status == 0)
        #expect(String(decoding: again.stdout, as: UTF8.self).contains("Already in the library: 1:"))
        #expect((try await json(["list", "--json"]) as? [Any])?.count == 1)
    }

    @Test("Children's Literature has its print pages, labelled as in its page-list")
    func printPages() async throws {
        let path = try NarrateProcess.corpusFile("epub/childrens-literature.epub")
        let pages = try #require(try await json(["pages", path, "--json"]) as? [[String: Any]])
        #expect(pages.count == 92)
        #expect(pages.compactMap { $0["label"] as? String } == (169...260).map(String.init))
    }

    @Test("The Waste Land's note numbers and note bodies are not read")
    func notesAreSkipped() async throws {
        let path = try NarrateProcess.corpusFile("epub/wasteland.epub")
        let text = String(decoding: try await narrate(["text", path]).stdout, as: UTF8.self)
        #expect(text.contains("April is the cruellest month"))
        for note in ["Cf. Ezekiel", "Ecclesiastes", "Jessie L. Weston", "NOTES ON", "Line 20."] {
            #expect(!text.contains(note), "\(note) is a note")
        }
    }

    @Test("A Gutenberg EPUB 3: toc lists the licence, header and contents list as skipped; --include-matter reads them")
    func skippedMatter() async throws {
        // Given
        let path = try NarrateProcess.corpusFile("epub/pg521-robinson-crusoe-gutenberg-epub3.epub")

        // When
        let toc = try await narrate(["toc", path])
        let text = try await narrate(["text", path])
        let everything = try await narrate(["text", path, "--include-matter"])
        let tocEverything = try await narrate(["toc", path, "--include-matter"])

        // Then
        #expect(toc.status == 0, "\(toc.stderr)")
        let listing = String(decoding: toc.stdout, as: UTF8.self)
        #expect(listing.contains("Skipped, not the book (--include-matter reads it):"))
        #expect(listing.contains("THE FULL PROJECT GUTENBERG LICENSE — Project Gutenberg header or licence"))
        #expect(listing.contains("Contents — contents list"))
        #expect(!listing.contains("THE FULL PROJECT GUTENBERG LICENSE  ……"))
        #expect(!String(decoding: text.stdout, as: UTF8.self).contains("PLEASE READ THIS BEFORE YOU DISTRIBUTE"))
        #expect(String(decoding: everything.stdout, as: UTF8.self).contains("PLEASE READ THIS BEFORE YOU DISTRIBUTE"))
        #expect(String(decoding: tocEverything.stdout, as: UTF8.self).contains("THE FULL PROJECT GUTENBERG LICENSE  ……"))
    }

    @Test("A Gutenberg text whose header says 'Language: Dutch' is read by the Dutch voice, and the user is told why")
    func gutenbergLanguage() async throws {
        // Given a text in the Project Gutenberg layout
        let text = """
            The Project Gutenberg EBook of Ontboezemingen, by Multatuli\r
            \r
            Title: Ontboezemingen\r
            Author: Multatuli\r
            Release Date: January 1, 2008 [EBook #24675]\r
            Language: Dutch\r
            \r
            *** START OF THIS PROJECT GUTENBERG EBOOK ONTBOEZEMINGEN ***\r
            \r
            Produced by Jeroen Hellingman\r
            \r
            Ik heb het boek gelezen, en het was goed.\r
            \r
            *** END OF THIS PROJECT GUTENBERG EBOOK ONTBOEZEMINGEN ***\r
            """
        let path = folder.path("ontboezemingen.txt")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))

        // When
        let page = try await narrate(["page", path, "1", "-o", "nl.wav", "--rate", "450"])
        let show = try await narrate(["show", path])

        // Then
        #expect(page.status == 0, "\(page.stderr)")
        #expect(page.stderr.contains("Speaking with voice nl (the book's language: nl)."), "\(page.stderr)")
        let details = String(decoding: show.stdout, as: UTF8.self)
        #expect(details.contains("Language:    nl"))
        #expect(details.contains("Date:        January 1, 2008"))
        #expect(details.contains("Credits:     Produced by Jeroen Hellingman"))
    }

    @Test("Dante's EPUB 2 chapters come from its NCX, three levels deep")
    func danteTableOfContents() async throws {
        let path = try NarrateProcess.corpusFile("epub/pg8789-dante-vision-of-hell-epub2.epub")
        let entries = try #require(try await json(["toc", path, "--json"]) as? [[String: Any]])
        #expect(entries.count == 45)
        #expect(Set(entries.compactMap { $0["depth"] as? Int }) == [0, 1, 2])
    }

    @Test("Alice's broken nav is passed over for its NCX, with real chapter titles")
    func aliceTableOfContents() async throws {
        let path = try NarrateProcess.corpusFile("epub/alice3-sigil-broken-nav.epub")
        let entries = try #require(try await json(["toc", path, "--json"]) as? [[String: Any]])
        let titles = entries.compactMap { $0["title"] as? String }
        #expect(titles.count == 12)
        #expect(titles.contains { $0.contains("Rabbit-Hole") })
    }

    @Test("An Arabic book is read by an Arabic voice when none is named")
    func languageChoosesVoice() async throws {
        let path = try NarrateProcess.corpusFile("epub/regime-anticancer-arabic.epub")
        let result = try await narrate(["page", path, "2", "-o", "ar.wav", "--rate", "450"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("voice ar"), "\(result.stderr)")
    }

    @Test("Import, narration by label and by index, next with progress, search and delete work together")
    func workflow() async throws {
        // Given
        let path = try NarrateProcess.corpusFile("epub/childrens-literature.epub")
        #expect(try await narrate(["add", path]).status == 0)

        // When: a page by its printed label, and the same page by its index
        let byLabel = try await narrate(["page", "Children", "170", "-o", "label.wav", "--rate", "450", "--verbose"])
        let byIndex = try await narrate(["page", "1", "#2", "-o", "index.wav", "--rate", "450", "--verbose"])

        // Then: the same page, the second time from the cache
        #expect(byLabel.status == 0, "\(byLabel.stderr)")
        #expect(byIndex.status == 0, "\(byIndex.stderr)")
        #expect(byIndex.stderr.contains("cache hit"))
        #expect(!byIndex.stderr.contains("cache miss"))
        #expect(try identical(Data(contentsOf: folder.url.appendingPathComponent("label.wav")), Data(contentsOf: folder.url.appendingPathComponent("index.wav"))))

        // When: next, twice
        let first = try await narrate(["next", "1", "--rate", "450", "-o", "next1.wav"])
        let second = try await narrate(["next", "1", "--rate", "450", "-o", "next2.wav"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("Page 169 (1 of 92"))
        #expect(second.stderr.contains("Page 170 (2 of 92"))
        let shown = try #require(try await json(["show", "1", "--json"]) as? [String: Any])
        #expect(shown["progressPage"] as? Int == 2)

        // When: search finds a word of the text, with its page
        let hits = try #require(try await json(["search", "fairy", "--json"]) as? [[String: Any]])
        #expect(hits.first?["id"] as? Int == 1)
        #expect(hits.first?["pageIndex"] as? Int != nil)

        // When: delete
        let removed = try await narrate(["remove", "1"])
        #expect(removed.status == 0)
        #expect((try await json(["list", "--json"]) as? [Any])?.isEmpty == true)
        let gone = try await narrate(["show", "1"])
        #expect(gone.status != 0)
        #expect(gone.stderr.contains("No book matches '1'"))
    }

    @Test("search lists up to 3 pages per book and says how many it left out; --all lists every one")
    func searchSeveralHits() async throws {
        // Given
        let path = try NarrateProcess.corpusFile("epub/childrens-literature.epub")
        #expect(try await narrate(["add", path]).status == 0)

        // When
        let some = try #require(try await json(["search", "fairy", "--json"]) as? [[String: Any]])
        let all = try #require(try await json(["search", "fairy", "--all", "--json"]) as? [[String: Any]])
        let text = try await narrate(["search", "fairy"])

        // Then: 3 of the book's many matching pages, then all of them
        let total = try #require(some.first?["bookMatchCount"] as? Int)
        #expect(total > 3)
        #expect(some.count == 3)
        #expect(some.allSatisfy { $0["id"] as? Int == 1 && $0["pageIndex"] as? Int != nil })
        #expect(all.count == total)
        #expect(Set(all.compactMap { $0["pageIndex"] as? Int }).count == all.count)
        let lines = String(decoding: text.stdout, as: UTF8.self).split(separator: "\n")
        #expect(text.status == 0, "\(text.stderr)")
        #expect(lines.first?.hasPrefix("   1  Children's Literature") == true, "\(lines)")
        #expect(lines.filter { $0.hasPrefix("      page ") }.count == 3, "\(lines)")
        #expect(lines.last == "      … \(total - 3) more matches in this book (--all lists every one)", "\(lines)")
    }

    @Test("Each broken EPUB gives its own clear error, and nothing is added", arguments: [
        ("container-xml-missing.epub", "container.xml"),
        ("mimetype-wrong-value.epub", "mimetype"),
        ("opf-malformed-xml.epub", "well-formed"),
        ("opf-no-spine-epub2.epub", "spine"),
        ("zip-empty-0-bytes.epub", "empty"),
        ("zip-truncated-no-central-directory.epub", "ZIP"),
    ])
    func brokenEPUB(file: String, mention: String) async throws {
        // Given
        let path = try NarrateProcess.corpusFile("bad-epub/" + file)

        // When
        let result = try await narrate(["add", path])

        // Then
        #expect(result.status == 1, "a clean failure, not a crash: \(result.status)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(result.stderr.lowercased().contains(mention.lowercased()), "\(result.stderr)")
        #expect((try await json(["list", "--json"]) as? [Any])?.isEmpty == true)
    }
}
