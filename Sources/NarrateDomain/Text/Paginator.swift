/// Cuts a book's text into pages of about the same number of words, the same way on every machine.
public enum Paginator {
    /// Pages of about `wordsPerPage` words from raw (decoded, not yet normalized) text.
    ///
    /// Paragraphs are separated by blank lines; a form feed (`\f`) always forces a page break. Cut at paragraph
    /// boundaries; a paragraph that would overflow a page far (it alone is more than 1.5 × `wordsPerPage`) is
    /// cut at sentence boundaries. Each page's text is normalized (``TextNormalizer`` rules, paragraphs joined
    /// by `"\n\n"`). No empty pages. Deterministic.
    public static func pages(of text: String, wordsPerPage: Int = 300) -> [String] {
        var paragraphs: [String] = []
        var forcedBreaks: Set<Int> = []
        for (blockIndex, block) in text.split(separator: "\u{0C}", omittingEmptySubsequences: false).enumerated() {
            if blockIndex > 0 { forcedBreaks.insert(paragraphs.count) }
            paragraphs.append(contentsOf: TextNormalizer.paragraphs(String(block)))
        }
        return pages(ofParagraphs: paragraphs, wordsPerPage: wordsPerPage, forcedBreaks: forcedBreaks)
    }

    /// Pages of about `wordsPerPage` words from paragraphs already normalized (one per element), for the
    /// EPUB/HTML parsers.
    ///
    /// - Parameters:
    ///   - paragraphs: normalized paragraphs; empty ones are skipped.
    ///   - wordsPerPage: the target page length in words (below 1 counts as 1).
    ///   - forcedBreaks: indices of paragraphs that must start a new page (a chapter's first paragraph); when
    ///     that paragraph is empty, the next non-empty one starts the page.
    public static func pages(
        ofParagraphs paragraphs: [String], wordsPerPage: Int = 300, forcedBreaks: Set<Int> = []
    ) -> [String] {
        var builder = PageBuilder(target: max(1, wordsPerPage))
        var breakPending = false
        for (index, paragraph) in paragraphs.enumerated() {
            if forcedBreaks.contains(index) { breakPending = true }
            let words = wordCount(paragraph)
            guard words > 0 else { continue }
            if breakPending {
                builder.finishPage()
                breakPending = false
            }
            if words * 2 > builder.target * 3 {
                builder.addLongParagraph(paragraph)
            } else {
                builder.addParagraph(paragraph, words: words)
            }
        }
        builder.finishPage()
        return builder.pages
    }

    public static func wordCount(_ text: some StringProtocol) -> Int {
        var count = 0
        var inWord = false
        for scalar in text.unicodeScalars {
            let space = scalar.isSpaceLike
            if !space, !inWord { count += 1 }
            inWord = !space
        }
        return count
    }
}
