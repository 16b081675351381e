import NarrateDomain
import Testing

@Suite struct SentenceSplitterTests {
    @Test("sentences end after a period, exclamation mark, question mark or ellipsis followed by whitespace")
    func basicTerminators() {
        // Given
        let text = "Hello there. How are you? Fine! Well… We'll see..."

        // When
        let sentences = SentenceSplitter.sentences(in: text)

        // Then
        #expect(sentences == ["Hello there.", "How are you?", "Fine!", "Well…", "We'll see..."])
    }

    @Test("common abbreviations do not end a sentence")
    func abbreviations() {
        // Given
        let text = "Mr. and Mrs. Bennet met Dr. Jones near St. Paul's. Bring fruit, e.g. apples, "
            + "i.e. Cox, pears, etc. Then go. It was Smith vs. Jones at No. 5 Baker Street. The end."

        // When
        let sentences = SentenceSplitter.sentences(in: text)

        // Then
        #expect(sentences == [
            "Mr. and Mrs. Bennet met Dr. Jones near St. Paul's.",
            "Bring fruit, e.g. apples, i.e. Cox, pears, etc. Then go.",
            "It was Smith vs. Jones at No. 5 Baker Street.",
            "The end.",
        ])
    }

    @Test("single capital initials and dotted abbreviations do not end a sentence")
    func initials() {
        // Given
        let text = "J. R. R. Tolkien wrote it. The U.S.A. Army came. M. Dupont arrive."

        // When
        let sentences = SentenceSplitter.sentences(in: text)

        // Then
        #expect(sentences == ["J. R. R. Tolkien wrote it.", "The U.S.A. Army came.", "M. Dupont arrive."])
    }

    @Test("a period inside a number does not end a sentence")
    func numbers() {
        // Given
        let text = "Pi is about 3.14 and e is 2.718. In 1813. Austen published it."

        // When
        let sentences = SentenceSplitter.sentences(in: text)

        // Then
        #expect(sentences == ["Pi is about 3.14 and e is 2.718.", "In 1813.", "Austen published it."])
    }

    @Test("closing quotes and brackets stay with the sentence they close; a lower-case word continues it")
    func closingQuotes() {
        // Given
        let text = "“Stop!” She ran. (It was late.) “Why?” said he. 'Go.' \"Now?!\" Yes."

        // When
        let sentences = SentenceSplitter.sentences(in: text)

        // Then
        #expect(sentences == ["“Stop!”", "She ran.", "(It was late.)", "“Why?” said he.", "'Go.'", "\"Now?!\"", "Yes."])
    }

    @Test("French spacing before ! ? and » and German quotes are understood")
    func frenchAndGerman() {
        // Given
        let french = "« Bonjour ! » Il entre. Quoi ? Rien. Mme Curie et Mlle. Dupont arrivent."
        let german = "„Ja.“ Er ging z.B. heute, d.h. am Montag, nach Hause. »Gut.« Das war’s."

        // When
        let frenchSentences = SentenceSplitter.sentences(in: french)
        let germanSentences = SentenceSplitter.sentences(in: german)

        // Then
        #expect(frenchSentences == ["« Bonjour ! »", "Il entre.", "Quoi ?", "Rien.", "Mme Curie et Mlle. Dupont arrivent."])
        #expect(germanSentences == ["„Ja.“", "Er ging z.B. heute, d.h. am Montag, nach Hause.", "»Gut.«", "Das war’s."])
    }

    @Test("a blank line or form feed ends a sentence even without punctuation")
    func paragraphBreaks() {
        // Given
        let text = "CHAPTER I\n\nIt is a truth\nuniversally acknowledged.\u{0C}Next"

        // When
        let sentences = SentenceSplitter.sentences(in: text)

        // Then
        #expect(sentences == ["CHAPTER I", "It is a truth\nuniversally acknowledged.", "Next"])
    }

    @Test("ranges are trimmed of whitespace, in order, and point into the original text")
    func rangesAreTrimmed() {
        // Given
        let text = "  \n Première phrase.   Deuxième ?\n\n  Troisième…  "

        // When
        let ranges = SentenceSplitter.sentenceRanges(in: text)

        // Then
        #expect(ranges.map { String(text[$0]) } == ["Première phrase.", "Deuxième ?", "Troisième…"])
        #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound <= $1.lowerBound })
        #expect(SentenceSplitter.sentenceRanges(in: " \n\t ").isEmpty)
    }

    @Test("the sentences of a whole book cover all its words, none empty or padded")
    func corpusBook() throws {
        // Given
        let text = TextNormalizer.normalize(GutenbergStripper.strip(try Corpus.text(Corpus.entreNous)))

        // When
        let sentences = SentenceSplitter.sentences(in: text)

        // Then
        #expect(sentences.count > 1000)
        #expect(sentences.allSatisfy { !$0.isEmpty && $0.first?.isWhitespace == false && $0.last?.isWhitespace == false })
        #expect(sentences.joined(separator: " ").split(separator: " ").count == text.split(whereSeparator: \.isWhitespace).count)
    }
}
