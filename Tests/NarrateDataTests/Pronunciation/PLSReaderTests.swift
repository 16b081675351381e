import Foundation
import NarrateDomain
import Testing

@testable import NarrateData

@Suite struct PLSReaderTests {
    private func read(_ text: String) -> Result<PronunciationLexicon, PLSReader.Failure> {
        PLSReader.read(Array(text.utf8), name: "test.pls")
    }

    @Test("a PLS lexicon gives its lexemes, language and alphabet; a phoneme may name its own alphabet, prefer picks one")
    func lexemes() throws {
        // Given
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="ipa" xml:lang="en-GB">
              <lexeme><grapheme>GIF</grapheme><grapheme> gif </grapheme><phoneme>dʒɪf</phoneme></lexeme>
              <lexeme><grapheme>tomato</grapheme><phoneme>təˈmeɪtəʊ</phoneme><phoneme prefer="true" alphabet="x-sampa">t@"mA:t@U</phoneme></lexeme>
              <lexeme><grapheme>W3C</grapheme><alias>World Wide Web Consortium</alias></lexeme>
            </lexicon>
            """

        // When
        let lexicon = try read(text).get()

        // Then
        #expect(lexicon.language == "en-GB")
        #expect(lexicon.name == "test.pls")
        #expect(lexicon.entries == [
            PronunciationEntry(graphemes: ["GIF", "gif"], phonemes: "dʒɪf", alphabet: "ipa"),
            PronunciationEntry(graphemes: ["tomato"], phonemes: "t@\"mA:t@U", alphabet: "x-sampa"),
        ])
        #expect(lexicon.digest.count == 64)
    }

    @Test("editing a lexicon changes its digest")
    func digestFollowsContent() throws {
        // Given
        let before = #"<lexicon alphabet="ipa"><lexeme><grapheme>a</grapheme><phoneme>eɪ</phoneme></lexeme></lexicon>"#
        let after = #"<lexicon alphabet="ipa"><lexeme><grapheme>a</grapheme><phoneme>ɑː</phoneme></lexeme></lexicon>"#

        // Then
        #expect(try read(before).get().digest != read(after).get().digest)
        #expect(try read(before).get().digest == read(before).get().digest)
    }

    @Test("malformed XML, another root, too many lexemes or too many bytes fail with a reason", arguments: [
        ("<lexicon><lexeme>", "end"),
        ("<html/>", "not a PLS <lexicon>"),
        ("<lexicon>" + String(repeating: "<lexeme><grapheme>a</grapheme><phoneme>a</phoneme></lexeme>", count: PronunciationLexicon.maxEntries + 1) + "</lexicon>", "more than 10000 lexemes"),
        ("<lexicon>" + String(repeating: " ", count: PLSReader.maxBytes) + "</lexicon>", "larger than 1024 KiB"),
    ])
    func failures(text: String, reason: String) {
        guard case let .failure(failure) = read(text) else {
            Issue.record("read a broken lexicon")
            return
        }
        #expect(failure.reason.contains(reason), "\(failure.reason)")
    }

    @Test("a --lexicon file that is missing or malformed is an error naming the file")
    func files() throws {
        // Given
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("narrate-pls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = folder.appendingPathComponent("broken.pls").path
        try Data("<lexicon>".utf8).write(to: URL(fileURLWithPath: broken))

        // Then
        #expect(throws: PronunciationError.unreadableLexicon(path: folder.path + "/none.pls", reason: "there is no such file")) {
            try LexiconFileReader.read([folder.path + "/none.pls"])
        }
        let error = #expect(throws: PronunciationError.self) { try LexiconFileReader.read([broken]) }
        #expect(error?.description.contains("broken.pls") == true)
    }
}

@Suite struct EPUBPronunciationTests {
    let sut = EPUBParser()

    @Test("an EPUB 3 book's PLS lexicons and inline ssml:ph come with the book, its text unchanged")
    func bookPronunciations() throws {
        // Given
        let data = try PronunciationBookFixture.epub()

        // When
        let book = try sut.parse(data, path: "book.epub", options: ParseOptions())

        // Then: inline marks first (one lexicon in the book's language), then the PLS files in manifest order
        #expect(book.lexicons.map(\.name) == ["ssml:ph in the book", "OEBPS/lexicons/terms-ipa.pls", "OEBPS/lexicons/foods-xsampa.pls", "OEBPS/lexicons/french.pls"])
        #expect(book.lexicons.map(\.language) == ["en-us", "en-US", "en", "fr"])
        #expect(book.lexicons[0].entries == [
            PronunciationEntry(graphemes: ["tomato"], phonemes: "t@\"mA:t@U", alphabet: "x-sampa"),
            PronunciationEntry(graphemes: ["lead"], phonemes: "lɛd", alphabet: "ipa"),
        ])
        #expect(book.lexicons[1].entries.first == PronunciationEntry(graphemes: ["nginx"], phonemes: "ˈɛndʒɪnˈɛks", alphabet: "ipa"))
        #expect(book.pages[0].text.contains("Say tomato the British way."))
    }

    @Test("a book's lexicon that cannot be read is kept empty with its problem: the book is read without it")
    func brokenLexicon() throws {
        // Given
        let data = try PronunciationBookFixture.epub(replacing: ["OEBPS/lexicons/terms-ipa.pls": "<lexicon><lexeme>"])

        // When
        let book = try sut.parse(data, path: "book.epub", options: ParseOptions())
        let pronouncer = Pronouncer(lexicons: book.lexicons, voice: "en-us")

        // Then
        let broken = try #require(book.lexicons.first { $0.name == "OEBPS/lexicons/terms-ipa.pls" })
        #expect(broken.entries.isEmpty)
        #expect(broken.problem != nil)
        #expect(pronouncer.warnings.contains { $0.lexicon == "OEBPS/lexicons/terms-ipa.pls" && $0.description.contains("without this lexicon") })
        #expect(pronouncer.apply("nginx and quinoa").text == "nginx and [['ki:nwA:]]")
    }

    @Test("ssml:ph counts only under a prefix bound to the SSML namespace, whatever its name")
    func otherPrefix() throws {
        // Given
        let chapter = """
            <?xml version="1.0" encoding="UTF-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:s="http://www.w3.org/2001/10/synthesis" xmlns:x="urn:other">
            <head><title>One</title></head>
            <body><p s:alphabet="x-sampa">A <b s:ph="&quot;ki:nwA:">quinoa</b> and <i x:ph="nope">kale</i>.</p></body></html>
            """
        let data = try EPUBFixture.archive(EPUBFixture.entries(chapter: Data(chapter.utf8)))

        // When
        let book = try sut.parse(data, path: "book.epub", options: ParseOptions())

        // Then
        #expect(book.lexicons.first?.entries == [PronunciationEntry(graphemes: ["quinoa"], phonemes: "\"ki:nwA:", alphabet: "x-sampa")])
        #expect(book.lexicons.first?.language == "fr-ca")
    }
}
