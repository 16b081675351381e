import NarrateDomain
import Testing

@Suite struct TextFileDecoderTests {
    @Test("a Windows-1252 file decodes its curly quotes and apostrophes to Unicode")
    func windows1252CorpusFile() throws {
        // Given
        let bytes = try Corpus.bytes(Corpus.prideAndPrejudice)

        // When
        let text = TextFileDecoder.decode(bytes)

        // Then
        #expect(text.contains("\u{201C}My dear Mr. Bennet,\u{201D} said his lady to him one day"))
        #expect(text.contains("Elizabeth\u{2019}s"))
        #expect(!text.unicodeScalars.contains("\u{FFFD}"))
        #expect(!text.unicodeScalars.contains { (0x80...0x9F).contains($0.value) })
    }

    @Test("a UTF-8 file with a byte order mark keeps its accents and loses the mark")
    func utf8WithBOMCorpusFile() throws {
        // Given
        let bytes = try Corpus.bytes(Corpus.entreNous)

        // When
        let text = TextFileDecoder.decode(bytes)

        // Then
        #expect(text.hasPrefix("The Project Gutenberg EBook of Entre Nous"))
        #expect(text.contains("Lectures Françaises à l'usage des ecoles primaires"))
        #expect(text.contains("Ce livre électronique reproduit intégralement le texte original."))
        #expect(!text.unicodeScalars.contains("\u{FEFF}"))
    }

    @Test("an ASCII file decodes byte for byte, CRLF line ends included")
    func asciiCorpusFile() throws {
        // Given
        let bytes = try Corpus.bytes(Corpus.devilsDictionary)

        // When
        let text = TextFileDecoder.decode(bytes)

        // Then
        #expect(text.utf8.count == bytes.count)
        #expect(text.hasPrefix("The Project Gutenberg Etext of The Devil's Dictionary by Bierce\r\n"))
    }

    @Test("UTF-16 with a little- or big-endian byte order mark decodes, mark removed")
    func utf16WithBOM() {
        // Given
        let little: [UInt8] = [0xFF, 0xFE, 0x5A, 0x00, 0xEB, 0x00, 0x20, 0x00, 0xAC, 0x20, 0x3D, 0xD8, 0x00, 0xDE]
        let big: [UInt8] = [0xFE, 0xFF, 0x00, 0x5A, 0x00, 0xEB, 0x00, 0x20, 0x20, 0xAC, 0xD8, 0x3D, 0xDE, 0x00]

        // When
        let fromLittle = TextFileDecoder.decode(little)
        let fromBig = TextFileDecoder.decode(big)

        // Then
        #expect(fromLittle == "Zë €😀")
        #expect(fromBig == "Zë €😀")
    }

    @Test("valid UTF-8 without a byte order mark is read as UTF-8")
    func utf8WithoutBOM() {
        // Given
        let bytes = Array("Noël – “déjà vu” 😀".utf8)

        // When
        let text = TextFileDecoder.decode(bytes)

        // Then
        #expect(text == "Noël – “déjà vu” 😀")
    }

    @Test("bytes that are not UTF-8 decode as Windows-1252, Latin-1 letters and cp1252 punctuation alike")
    func windows1252Fallback() {
        // Given: "café" in Latin-1, then € ‘ ’ “ ” – — … ™ in cp1252, then the undefined 0x81
        let bytes: [UInt8] = [0x63, 0x61, 0x66, 0xE9, 0x20, 0x80, 0x91, 0x92, 0x93, 0x94, 0x96, 0x97, 0x85, 0x99, 0x81]

        // When
        let text = TextFileDecoder.decode(bytes)

        // Then
        #expect(text == "café €‘’“”–—…™\u{81}")
    }

    @Test("no bytes decode to the empty string")
    func emptyInput() {
        #expect(TextFileDecoder.decode([UInt8]()) == "")
        #expect(TextFileDecoder.decode([0xEF, 0xBB, 0xBF] as [UInt8]) == "")
    }
}
