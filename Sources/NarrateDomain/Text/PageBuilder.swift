/// Accumulates paragraphs, or the sentences of a long paragraph, into pages for ``Paginator``.
struct PageBuilder {
    let target: Int
    private(set) var pages: [String] = []
    private var paragraphs: [String] = []
    /// Sentences of a long paragraph not yet closed into `paragraphs`.
    private var sentences: [String] = []
    private var words = 0

    init(target: Int) {
        self.target = target
    }

    /// Adds a whole paragraph, first closing the page when the page would end closer to the target without it.
    mutating func addParagraph(_ paragraph: String, words count: Int) {
        breakIfCloserToTarget(adding: count)
        paragraphs.append(paragraph)
        words += count
    }

    /// Adds a paragraph too long for one page sentence by sentence, so pages break between its sentences.
    mutating func addLongParagraph(_ paragraph: String) {
        for sentence in SentenceSplitter.sentences(in: paragraph) {
            let count = Paginator.wordCount(sentence)
            if count * 2 > target * 3 {
                // A sentence that alone overflows a page (verse without full stops, lists): cut between words.
                for piece in wordGroups(of: sentence) {
                    addSentence(piece, words: Paginator.wordCount(piece))
                }
            } else {
                addSentence(sentence, words: count)
            }
        }
        closeSentences()
    }

    mutating func finishPage() {
        closeSentences()
        if !paragraphs.isEmpty {
            pages.append(paragraphs.joined(separator: "\n\n"))
        }
        paragraphs.removeAll()
        words = 0
    }

    private mutating func addSentence(_ sentence: String, words count: Int) {
        breakIfCloserToTarget(adding: count)
        sentences.append(sentence)
        words += count
    }

    private mutating func closeSentences() {
        if !sentences.isEmpty {
            paragraphs.append(sentences.joined(separator: " "))
            sentences.removeAll()
        }
    }

    /// Ends the page before `count` more words when stopping now leaves it nearer `target` than going on.
    private mutating func breakIfCloserToTarget(adding count: Int) {
        if words > 0, (words + count) - target > target - words {
            finishPage()
        }
    }

    private func wordGroups(of sentence: String) -> [String] {
        let words = sentence.split(whereSeparator: { $0.isWhitespace })
        return stride(from: 0, to: words.count, by: target).map { start in
            words[start..<min(start + target, words.count)].joined(separator: " ")
        }
    }
}
