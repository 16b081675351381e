import Foundation
import NarrateDomain
import Testing

@testable import NarrateData

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
