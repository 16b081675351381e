import NarrateDomain
import Testing

@Suite struct PaginatorTests {
    private func wordCount(_ text: String) -> Int {
        text.split(whereSeparator: \.isWhitespace).count
    }

    /// `count` paragraphs of `words` words each, every paragraph one sentence.
    private func paragraphs(_ count: Int, words: Int) -> [String] {
        (0..<count).map { index in
            (0..<words).map { "w\(index)x\($0)" }.joined(separator: " ") + "."
        }
    }

    @Test("pages of a whole book hold about the target number of words and lose none")
    func corpusWordCounts() throws {
        // Given
        let body = GutenbergStripper.strip(try Corpus.text(Corpus.devilsDictionary))

        // When
        let pages = Paginator.pages(of: body, wordsPerPage: 300)

        // Then
        let counts = pages.map(wordCount)
        let nearTarget = counts.dropLast().filter { (150...450).contains($0) }.count
        #expect(Double(nearTarget) >= Double(counts.count - 1) * 0.95)
        #expect(counts.allSatisfy { $0 > 0 && $0 <= 600 })
        #expect(counts.reduce(0, +) == wordCount(TextNormalizer.normalize(body)))
        let average = Double(counts.reduce(0, +)) / Double(counts.count)
        #expect((270...330).contains(average))
    }

    @Test("the page count of each corpus book is stable", arguments: [
        (Corpus.prideAndPrejudice, 425),
        (Corpus.devilsDictionary, 205),
        (Corpus.entreNous, 58),
    ])
    func corpusPageCounts(book: String, expectedPages: Int) throws {
        // Given
        let body = GutenbergStripper.strip(try Corpus.text(book))

        // When
        let pages = Paginator.pages(of: body)

        // Then
        #expect(pages.count == expectedPages)
    }

    @Test("pagination is deterministic")
    func deterministic() throws {
        // Given
        let body = GutenbergStripper.strip(try Corpus.text(Corpus.entreNous))

        // When
        let first = Paginator.pages(of: body, wordsPerPage: 120)
        let second = Paginator.pages(of: body, wordsPerPage: 120)

        // Then
        #expect(first == second)
        #expect(first.count > 100)
    }

    @Test("each page's text is normalized, paragraphs joined by one blank line")
    func pagesAreNormalized() {
        // Given
        let text = "\r\n  Le  chat\r\ndort.\r\n\r\n\r\nLe\u{A0}chien\tjoue.  \r\n"

        // When
        let pages = Paginator.pages(of: text, wordsPerPage: 300)

        // Then
        #expect(pages == ["Le chat dort.\n\nLe chien joue."])
    }

    @Test("a form feed always starts a new page, and no page is empty")
    func formFeedBreaks() {
        // Given
        let text = "One two.\n\nThree.\u{0C}Four five.\u{0C}\u{0C}\n\n\u{0C}Six.\n\n\n"

        // When
        let pages = Paginator.pages(of: text, wordsPerPage: 300)

        // Then
        #expect(pages == ["One two.\n\nThree.", "Four five.", "Six."])
    }

    @Test("pages are cut between paragraphs, ending where the page is nearest the target")
    func cutsBetweenParagraphs() {
        // Given: ten paragraphs of 30 words
        let input = paragraphs(10, words: 30)

        // When
        let pages = Paginator.pages(ofParagraphs: input, wordsPerPage: 100)

        // Then: 90 words is nearer 100 than 120 is, so three paragraphs a page
        let paragraphCounts = pages.map { $0.split(separator: "\n\n").count }
        #expect(paragraphCounts == [3, 3, 3, 1])
        #expect(pages.joined(separator: "\n\n") == input.joined(separator: "\n\n"))
    }

    @Test("forced breaks start a new page at the given paragraphs, even short ones")
    func forcedBreaks() {
        // Given
        let input = ["Chapter one.", "Text of one.", "", "Chapter two.", "Text of two."]

        // When
        let pages = Paginator.pages(ofParagraphs: input, wordsPerPage: 300, forcedBreaks: [2])

        // Then: the break on the empty paragraph carries to the next one
        #expect(pages == ["Chapter one.\n\nText of one.", "Chapter two.\n\nText of two."])
    }

    @Test("a paragraph far longer than a page is cut at sentence boundaries")
    func longParagraphCutAtSentences() {
        // Given: one paragraph of 40 sentences of 10 words
        let sentences = (0..<40).map { index in
            "Sentence \(index) " + (0..<8).map { "word\($0)" }.joined(separator: " ") + "."
        }
        let paragraph = sentences.joined(separator: " ")

        // When
        let pages = Paginator.pages(ofParagraphs: ["Intro words here.", paragraph, "Outro."], wordsPerPage: 100)

        // Then
        #expect(pages.count == 5)
        #expect(pages.allSatisfy { $0.hasSuffix(".") })
        #expect(pages.dropLast().allSatisfy { (90...110).contains(wordCount($0)) })
        let totalWords = pages.map(wordCount).reduce(0, +)
        #expect(totalWords == 404)
        #expect(pages[0].hasPrefix("Intro words here.\n\nSentence 0 "))
    }

    @Test("a paragraph only a little over a page stays whole")
    func slightlyLongParagraphStaysWhole() {
        // Given: 140 words, under 1.5 × 100
        let input = paragraphs(1, words: 140)

        // When
        let pages = Paginator.pages(ofParagraphs: input, wordsPerPage: 100)

        // Then
        #expect(pages == input)
    }

    @Test("no paragraphs, or only empty ones, give no pages")
    func emptyInput() {
        #expect(Paginator.pages(of: "").isEmpty)
        #expect(Paginator.pages(of: "\n\n\u{0C} \r\n").isEmpty)
        #expect(Paginator.pages(ofParagraphs: ["", " "], forcedBreaks: [0, 1]).isEmpty)
    }
}
