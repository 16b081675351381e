import NarrateDomain
import Testing

/// Where a long sentence is cut into cues, with word marks as eSpeak NG 1.51 reports them: a mark inside
/// every token it speaks as several words (`Anno 1,652,` gives marks at `1`, `,`, `6`, `5`, `5`), marks that
/// drift into the word before (`he had`: the mark of "had" points at the "e" of "he"), and a mark at the first
/// letter after an opening quote or bracket, never at the quote.
///
/// Each sentence has one mark a second and a limit that puts the ideal cut on the mark that must not be a cut.
@Suite struct SubtitleCueBreakTests {
    static let sampleRate = 22_050

    /// Marks one second apart, the `n`th at `n` s. Each anchor is a piece of `text` with a `|` where the mark
    /// points; anchors are found in order, each at or after the previous one.
    static func marks(in text: String, _ anchors: [String]) -> [WordMark] {
        let scalars = Array(text.unicodeScalars)
        var cursor = 0
        return anchors.enumerated().map { number, anchor in
            let bar = Array(anchor.unicodeScalars).firstIndex(of: "|") ?? 0
            let needle = Array(anchor.unicodeScalars.filter { $0 != "|" })
            let found = (cursor...(scalars.count - needle.count)).first { Array(scalars[$0..<($0 + needle.count)]) == needle }
            guard let found else {
                Issue.record("anchor \(anchor) not found after \(cursor)")
                return WordMark(textOffset: 0, textLength: 0, sampleOffset: number * sampleRate)
            }
            cursor = found
            return WordMark(textOffset: found + bar, textLength: 2, sampleOffset: number * sampleRate)
        }
    }

    func build(_ text: String, _ marks: [WordMark], maxCueSeconds: Double) -> [SubtitleCue] {
        SubtitleCueBuilder.cues(
            text: text, wordMarks: marks, sampleRate: Self.sampleRate,
            totalSamples: (marks.count + 1) * Self.sampleRate, maxCueSeconds: maxCueSeconds
        )
    }

    @Test("a number eSpeak speaks as several words (Anno 1,652,) is never cut")
    func numberWithThousandsSeparator() {
        // Given the ideal cut (8.5 s) between the marks eSpeak puts inside "1,652,"
        let text = "They came to the town in Anno 1,652, the year of the flood."
        let marks = Self.marks(in: text, [
            "|They", "|came", "|to", "|the", "|town", "|in", "|Anno",
            "|1,652", "1|,652", "1,|652", "1,6|52", "1,6|52", "|the", "|year", "|of", "|the", "|flood",
        ])

        // When
        let cues = build(text, marks, maxCueSeconds: 9)

        // Then
        #expect(cues.count > 1)
        #expect(SubtitleCutCheck.problems(text: text, cues: cues) == [])
        #expect(!cues.contains { $0.text.hasSuffix("1,") || $0.text.hasPrefix("652") })
    }

    @Test("a range of years in brackets, (1805-1875), is never cut")
    func yearsInBrackets() {
        // Given the ideal cut (7.5 s) among the marks eSpeak puts inside "(1805-1875)"
        let text = "The poet Hans (1805-1875) wrote many fine tales for the children of his town."
        let marks = Self.marks(in: text, [
            "|The", "|poet", "|Hans", "(|1805", "(1|805", "(1|805", "(1805|-", "(1805-|1875", "(1805-1|875",
            "(1805-1|875", "|wrote", "|many", "|fine", "|tales", "|for",
        ])

        // When
        let cues = build(text, marks, maxCueSeconds: 8)

        // Then
        #expect(cues.count > 1)
        #expect(SubtitleCutCheck.problems(text: text, cues: cues) == [])
        #expect(!cues.contains { $0.text.hasSuffix("(") || $0.text.contains("(1805-1 ") })
    }

    @Test("a mark that drifts into the word before (h|e had) does not cut that word")
    func driftedMark() {
        // Given the mark of "had" on the "e" of "he", where the ideal cut (5 s) lies
        let text = "He paid in copper money he had saved for many long years."
        let marks = Self.marks(in: text, [
            "|He", "|paid", "|in", "|copper", "|money", "h|e had", "|saved", "|for", "|many", "|long",
        ])

        // When
        let cues = build(text, marks, maxCueSeconds: 6)

        // Then
        #expect(cues.count > 1)
        #expect(SubtitleCutCheck.problems(text: text, cues: cues) == [])
        #expect(!cues.contains { $0.text.hasSuffix(" h") })
    }

    @Test("a trademark sign eSpeak speaks as a word stays on its word (Gutenberg™)")
    func trademarkSign() {
        // Given marks at "™", in the space after it and inside "eBook" (eSpeak's positions drift after ™)
        let text = "This is a free Project Gutenberg™ eBook for the use of anyone anywhere."
        let marks = Self.marks(in: text, [
            "|This", "|is", "|a", "|free", "|Project", "|Gutenberg", "Gutenberg|™", "™| eBook", "|eBook", "e|Book",
            "|for", "|the",
        ])

        // When the ideal cut (6.5 s) falls between the marks at "™" and after it
        let cues = build(text, marks, maxCueSeconds: 7)

        // Then
        #expect(cues.count > 1)
        #expect(SubtitleCutCheck.problems(text: text, cues: cues) == [])
        #expect(cues.contains { $0.text.contains("Gutenberg™") })
    }

    @Test("a cue never ends with an opening quotation mark or bracket")
    func openingMarks() {
        // Given marks on the first letter after “, ‘, ( and [, each where an ideal cut falls
        for (text, mark) in [
            ("He looked up and said, “Hello there, my friend,” and then he went away.", "“|Hello"),
            ("He looked up and said, ‘Hello there, my friend,’ and then he went away.", "‘|Hello"),
            ("He looked up and said, (Hello there, my friend) and then he went away.", "(|Hello"),
            ("He looked up and said, [Hello there, my friend] and then he went away.", "[|Hello"),
            ("He looked up and said, \"Hello there, my friend\" and then he went away.", "\"|Hello"),
            ("He looked up and said, «Hello there, my friend» and then he went away.", "«|Hello"),
        ] {
            let marks = Self.marks(in: text, [
                "|He", "|looked", "|up", "|and", "|said", mark, "|there", "|my", "|friend", "|and", "|then",
            ])

            // When the ideal cut (5.5 s) falls between the 5th and 6th word
            let cues = build(text, marks, maxCueSeconds: 7)

            // Then the quote or bracket opens the second cue
            #expect(cues.count > 1)
            #expect(SubtitleCutCheck.problems(text: text, cues: cues) == [], "\(text)")
            #expect(cues.dropFirst().first?.text.hasPrefix(String(mark.prefix { $0 != "|" })) == true, "\(text)")
        }
    }

    @Test("a French quotation mark standing apart (« Bonjour) stays with the word it opens")
    func frenchSpacedQuotes() {
        // Given French spacing: the « is a token of its own
        let text = "Elle ouvrit la porte et dit « Bonjour, monsieur ! » puis elle partit vite."
        let marks = Self.marks(in: text, [
            "|Elle", "|ouvrit", "|la", "|porte", "|et", "|dit", "|Bonjour", "|monsieur", "|puis", "|elle", "|partit",
        ])

        // When the ideal cut (6 s) falls on "Bonjour"
        let cues = build(text, marks, maxCueSeconds: 7)

        // Then
        #expect(cues.count > 1)
        #expect(SubtitleCutCheck.problems(text: text, cues: cues) == [])
        #expect(!cues.contains { $0.text.hasSuffix("«") || $0.text.hasPrefix("»") || $0.text.hasPrefix("!") })
    }

    @Test("a sentence with no place to cut stays one cue, however long")
    func noPlaceToCut() {
        // Given one long token spoken as many words
        let text = "Call 1-800-555-0199-0000-1234."
        let marks = Self.marks(in: text, ["|Call", "|1-800", "1-|800", "1-800-|555", "1-800-555-|0199", "-|0000", "-|1234"])

        // When
        let cues = build(text, marks, maxCueSeconds: 2)

        // Then
        #expect(cues.map(\.text) == ["Call 1-800-555-0199-0000-1234."] || cues.map(\.text) == ["Call", "1-800-555-0199-0000-1234."])
        #expect(SubtitleCutCheck.problems(text: text, cues: cues) == [])
    }
}
