import Foundation
import NarrateDomain
import Testing

@Suite struct GutenbergStripperTests {
    @Test("a modern header and footer are removed from a Windows-1252 book")
    func modernHeader() throws {
        // Given
        let text = try Corpus.text(Corpus.prideAndPrejudice)

        // When
        let body = GutenbergStripper.strip(text)

        // Then
        #expect(body.hasPrefix("[Illustration:"))
        #expect(body.hasSuffix("TOOKS COURT, CHANCERY LANE, LONDON."))
        #expect(body.contains("It is a truth universally acknowledged, that a single man in possession"))
        #expect(body.contains("had been the means of uniting them."))
        #expect(!body.lowercased().contains("gutenberg"))
        #expect(body.count > text.count - 40_000)
    }

    @Test("a 1990s Small Print header and an Etext footer are removed from an ASCII CRLF book")
    func smallPrintHeader() throws {
        // Given
        let text = try Corpus.text(Corpus.devilsDictionary)

        // When
        let body = GutenbergStripper.strip(text)

        // Then
        #expect(body.hasPrefix("The Internet Wiretap 1st Online Edition of"))
        #expect(body.hasSuffix("that the domestic cow sheds its horn every two years."))
        #expect(body.contains("AUTHOR'S PREFACE"))
        #expect(!body.lowercased().contains("gutenberg"))
        #expect(!body.lowercased().contains("small print"))
    }

    @Test("the header, producer credit, footer and full licence are removed from a French UTF-8 book")
    func fullLicenseSection() throws {
        // Given
        let text = try Corpus.text(Corpus.entreNous)

        // When
        let body = GutenbergStripper.strip(text)

        // Then
        #expect(body.hasPrefix("Au lecteur."))
        #expect(body.hasSuffix("(de\r\n               vensterbank.)"))
        #expect(body.contains("Ce livre électronique reproduit intégralement le texte original."))
        #expect(!body.lowercased().contains("gutenberg"))
        #expect(!body.contains("Produced by"))
        #expect(!body.contains("FULL LICENSE"))
    }

    @Test("stripping gives the same book whether lines end in CRLF or LF")
    func lineFeedOnly() throws {
        // Given
        let crlf = try Corpus.text(Corpus.devilsDictionary)
        let lf = crlf.replacingOccurrences(of: "\r\n", with: "\n")

        // When
        let fromCRLF = GutenbergStripper.strip(crlf)
        let fromLF = GutenbergStripper.strip(lf)

        // Then
        #expect(fromLF == fromCRLF.replacingOccurrences(of: "\r\n", with: "\n"))
        #expect(fromLF.hasPrefix("The Internet Wiretap"))
    }

    @Test("text without Gutenberg markers comes back unchanged")
    func noMarkers() {
        // Given
        let text = "  Chapter 1\r\n\r\nIt was *** a dark night. ***\r\nEnd of the story.\n"

        // When
        let body = GutenbergStripper.strip(text)

        // Then
        #expect(body == text)
    }

    @Test("markers are found whatever their spacing and case, and the earliest footer wins")
    func markerVariants() {
        // Given
        let text = """
            Header stuff
            ***START OF THE PROJECT GUTENBERG EBOOK SOME BOOK***

            Produced by Someone
            and helpers.

            Real start.

            Real end.

            End of Project Gutenberg's Some Book, by Somebody

            *** END OF THIS PROJECT GUTENBERG EBOOK SOME BOOK ***
            licence
            """

        // When
        let body = GutenbergStripper.strip(text)

        // Then
        #expect(body == "Real start.\n\nReal end.")
    }

    @Test("the title and author of a modern header are read, a subtitle line included")
    func metadata() throws {
        // Given
        let pride = try Corpus.text(Corpus.prideAndPrejudice)
        let entreNous = try Corpus.text(Corpus.entreNous)

        // When
        let prideMetadata = GutenbergStripper.header(in: pride)
        let entreNousMetadata = GutenbergStripper.header(in: entreNous)

        // Then
        #expect(prideMetadata.title == "Pride and Prejudice")
        #expect(prideMetadata.author == "Jane Austen")
        #expect(entreNousMetadata.title == "Entre Nous: Lectures Françaises à l'usage des ecoles primaires - I")
        #expect(entreNousMetadata.author == "Lucie Vos")
    }

    @Test("a header without Title and Author lines, or text without a header, has no metadata")
    func noMetadata() throws {
        // Given
        let devils = try Corpus.text(Corpus.devilsDictionary)

        // When
        let devilsMetadata = GutenbergStripper.header(in: devils)
        let plainMetadata = GutenbergStripper.header(in: "Title: Not a header\nAuthor: Nobody\n\nText.")

        // Then
        #expect(devilsMetadata.title == nil && devilsMetadata.author == nil)
        #expect(plainMetadata.title == nil && plainMetadata.author == nil)
    }
}
