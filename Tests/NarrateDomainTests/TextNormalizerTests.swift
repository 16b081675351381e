import NarrateDomain
import Testing

@Suite struct TextNormalizerTests {
    @Test("CRLF and CR line ends become soft wraps inside a paragraph and blank lines separate paragraphs")
    func lineEnds() {
        // Given
        let text = "It is a truth\r\nuniversally acknowledged.\r\n\r\nHowever little\rknown.\r\rEnd."

        // When
        let normalized = TextNormalizer.normalize(text)

        // Then
        #expect(normalized == "It is a truth universally acknowledged.\n\nHowever little known.\n\nEnd.")
    }

    @Test("text is composed to NFC so the same word always has the same scalars")
    func nfc() {
        // Given: e + combining acute accent
        let decomposed = "e\u{301}cole fran\u{0063}\u{0327}aise"

        // When
        let normalized = TextNormalizer.normalize(decomposed)

        // Then
        #expect(Array(normalized.unicodeScalars) == Array("\u{E9}cole fran\u{E7}aise".unicodeScalars))
    }

    @Test("no-break, thin, ideographic spaces and tabs fold with other whitespace into one space")
    func unicodeSpaces() {
        // Given
        let text = "Page\u{A0}12 :\u{202F}voilà\u{2009}!\t\tDone\u{3000} \u{2003}now"

        // When
        let normalized = TextNormalizer.normalize(text)

        // Then
        #expect(normalized == "Page 12 : voilà ! Done now")
    }

    @Test("soft hyphens, control characters and stray byte order marks are removed")
    func removedCharacters() {
        // Given
        let text = "\u{FEFF}co\u{AD}operate\u{0}\u{7} now\u{1B}\u{85}then\u{9C}."

        // When
        let normalized = TextNormalizer.normalize(text)

        // Then
        #expect(normalized == "cooperate now then.")
    }

    @Test("a form feed or blank lines holding only spaces separate paragraphs, joined by exactly one blank line")
    func paragraphSeparators() {
        // Given
        let text = "\n\n  First  line\n  still first.\n   \n\t\n\n\nSecond.\u{0C}Third.\u{0C}\u{0C}\n\nFourth.  \n\n"

        // When
        let normalized = TextNormalizer.normalize(text)
        let paragraphs = TextNormalizer.paragraphs(text)

        // Then
        #expect(normalized == "First line still first.\n\nSecond.\n\nThird.\n\nFourth.")
        #expect(paragraphs == ["First line still first.", "Second.", "Third.", "Fourth."])
    }

    @Test("whitespace-only text normalizes to nothing")
    func whitespaceOnly() {
        #expect(TextNormalizer.normalize(" \r\n\t\u{A0}\u{0C}\n") == "")
        #expect(TextNormalizer.paragraphs("\n\n \n").isEmpty)
    }

    @Test("normalizing a whole book is idempotent and its paragraphs are the pieces between blank lines")
    func corpusBook() throws {
        // Given
        let text = try Corpus.text(Corpus.entreNous)

        // When
        let normalized = TextNormalizer.normalize(text)
        let paragraphs = TextNormalizer.paragraphs(text)

        // Then
        #expect(TextNormalizer.normalize(normalized) == normalized)
        #expect(paragraphs.joined(separator: "\n\n") == normalized)
        #expect(!normalized.contains("\r"))
        #expect(!normalized.contains("\n\n\n"))
        #expect(paragraphs.allSatisfy { !$0.contains("\n") && !$0.contains("  ") && !$0.isEmpty })
        #expect(paragraphs.contains("Au lecteur."))
    }
}

@Suite struct WhitespaceRuleTests {
    @Test("Markup folding and text normalization agree on every kind of space and invisible character")
    func oneRule() {
        // Given text with a zero-width space, a word joiner, a soft hyphen, a BOM, no-break and ideographic spaces, and a ZWJ
        let text = "a\u{200B}b c\u{2060}d e\u{00AD}f\u{FEFF}g\u{00A0}h\u{3000}i \u{0915}\u{094D}\u{200D}\u{0937}"

        // When
        let normalized = TextNormalizer.normalize(text)

        // Then invisible characters go, spaces fold, the joiner stays
        #expect(normalized == "ab cd efg h i \u{0915}\u{094D}\u{200D}\u{0937}")
        #expect(WhitespaceRule.kind(of: "\u{200B}") == .invisible)
        #expect(WhitespaceRule.kind(of: "\u{200D}") == .visible)
        #expect(WhitespaceRule.kind(of: "\u{2003}") == .space)
    }
}
