import NarrateDomain
import Testing

@Suite struct QuotationFinderTests {
    private func quoted(_ text: String) -> [String] {
        DialogueAnalyzer.analyze(text).parts.map(\.quotation.text)
    }

    @Test("a quotation interrupted by narration gives two quoted parts, typographic or straight")
    func interrupted() {
        // Given
        let typographic = "\u{201C}I cannot agree,\u{201D} said Emma, \u{201C}you know I cannot.\u{201D}"
        let straight = "\"I cannot agree,\" said Emma, \"you know I cannot.\""

        // When
        let parts = [quoted(typographic), quoted(straight)]

        // Then
        #expect(parts == [["I cannot agree,", "you know I cannot."], ["I cannot agree,", "you know I cannot."]])
    }

    @Test("apostrophes and quotes nested in a quotation are part of it")
    func apostrophesAndNesting() {
        // Given
        let text = "\"Don't say 'never' to me,\" said Tom. 'Tis the rabbits' burrow, o' course."

        // When
        let parts = quoted(text)

        // Then
        #expect(parts == ["Don't say 'never' to me,"])
    }

    @Test("a book that quotes with single marks: quotations found, apostrophes kept inside")
    func singleMarks() {
        // Given
        let paragraph = "'I can't come,' said Alice. 'The Rabbit's house is far, isn't it?'"
        let text = Array(repeating: paragraph, count: 12).joined(separator: "\n\n")

        // When
        let parts = quoted(text)

        // Then
        #expect(parts.count == 24)
        #expect(parts.prefix(2) == ["I can't come,", "The Rabbit's house is far, isn't it?"])
    }

    @Test("a quotation over two paragraphs: the first left open, the second opening again")
    func overParagraphs() {
        // Given
        let text = "\"It was late when we came home.\n\n\"Then the rain began,\" said Emma."

        // When
        let parts = DialogueAnalyzer.analyze(text).parts

        // Then
        #expect(parts.map(\.quotation.text) == ["It was late when we came home.", "Then the rain began,"])
        #expect(parts.map(\.quotation.continuesPrevious) == [false, true])
    }

    @Test("guillemets both ways and German low-high quotes")
    func otherLanguages() {
        // Given
        let french = "\u{00AB} Bonjour \u{00BB}, dit Marie."
        let german = "\u{201E}Guten Tag\u{201C}, sagte Anna. \u{00BB}Ja\u{00AB}, sagte er."

        // When
        let parts = [quoted(french), quoted(german)]

        // Then
        #expect(parts == [["Bonjour"], ["Guten Tag", "Ja"]])
    }

    @Test("an em-dash dialogue line: speech, the narrator cutting in, speech again")
    func dashLines() {
        // Given
        let text = "Juan miró el reloj.\n\n\u{2014}¿Qué hora es? \u{2014}preguntó Juan\u{2014}. Tengo prisa."

        // When
        let parts = quoted(text)

        // Then
        #expect(parts == ["¿Qué hora es?", "Tengo prisa."])
    }

    @Test("offsets count Unicode scalars, as a Python string indexes the text")
    func offsets() {
        // Given
        let text = "Zoë smiled. \u{201C}Olá,\u{201D} she said. \"👋 Hi.\""

        // When
        let parts = DialogueAnalyzer.analyze(text).parts

        // Then
        let scalars = Array(text.unicodeScalars)
        #expect(parts.count == 2)
        #expect(parts.allSatisfy { part in
            String(String.UnicodeScalarView(scalars[part.quotation.start..<part.quotation.end])) == part.quotation.text
        })
        #expect(parts.map(\.quotation.start) == [13, 30])
    }
}
