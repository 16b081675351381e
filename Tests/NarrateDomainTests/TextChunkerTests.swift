import NarrateDomain
import Testing

@Suite struct TextChunkerTests {
    /// Checks the chunker's contract for `chunks` cut from `text` with `limit`; returns the failures found.
    private func violations(of chunks: [TextChunk], in text: String, limit: Int) -> [String] {
        var problems: [String] = []
        let scalars = Array(text.unicodeScalars)
        var previousEnd = 0
        for chunk in chunks {
            let count = chunk.text.unicodeScalars.count
            if count > limit { problems.append("too long (\(count)): \(chunk.text.prefix(40))") }
            if count == 0 { problems.append("empty chunk at \(chunk.scalarOffset)") }
            if chunk.text.first?.isWhitespace == true || chunk.text.last?.isWhitespace == true {
                problems.append("untrimmed: \(chunk.text.prefix(40))")
            }
            if chunk.scalarOffset < previousEnd { problems.append("out of order at \(chunk.scalarOffset)") }
            let end = chunk.scalarOffset + count
            if end > scalars.count || !scalars[chunk.scalarOffset..<end].elementsEqual(chunk.text.unicodeScalars) {
                problems.append("not the substring at \(chunk.scalarOffset): \(chunk.text.prefix(40))")
            } else if scalars[previousEnd..<chunk.scalarOffset].contains(where: { !$0.properties.isWhitespace }) {
                problems.append("text lost before \(chunk.scalarOffset)")
            }
            previousEnd = max(previousEnd, end)
        }
        if scalars[min(previousEnd, scalars.count)...].contains(where: { !$0.properties.isWhitespace }) {
            problems.append("text lost at the end")
        }
        return problems
    }

    @Test("a whole book cuts into chunks within the limit that are exact substrings covering all its text")
    func corpusInvariants() throws {
        // Given
        let text = TextNormalizer.normalize(GutenbergStripper.strip(try Corpus.text(Corpus.entreNous)))

        // When
        let chunks = TextChunker.chunks(of: text, maxScalars: 300)

        // Then
        #expect(chunks.count > 100)
        #expect(violations(of: chunks, in: text, limit: 300) == [])
    }

    @Test("consecutive sentences and paragraphs share a chunk while the limit holds, keeping the blank line")
    func sentencesAndParagraphsShareChunks() {
        // Given
        let text = "One two. Three four.\n\nFive six. Seven eight."

        // When
        let chunks = TextChunker.chunks(of: text, maxScalars: 31)

        // Then
        #expect(chunks == [
            TextChunk(text: "One two. Three four.\n\nFive six.", scalarOffset: 0),
            TextChunk(text: "Seven eight.", scalarOffset: 32),
        ])
    }

    @Test("chunks are cut at sentence boundaries, not mid-sentence, when sentences fit")
    func cutsAtSentenceBoundaries() {
        // Given
        let text = "Alpha beta gamma. Delta epsilon zeta. Eta theta iota."

        // When
        let chunks = TextChunker.chunks(of: text, maxScalars: 20)

        // Then
        #expect(chunks.map(\.text) == ["Alpha beta gamma.", "Delta epsilon zeta.", "Eta theta iota."])
        #expect(chunks.map(\.scalarOffset) == [0, 18, 38])
    }

    @Test("a sentence longer than the limit is cut at word boundaries")
    func longSentenceCutAtWords() {
        // Given
        let text = "the quick brown fox jumps over the lazy dog and runs away"

        // When
        let chunks = TextChunker.chunks(of: text, maxScalars: 16)

        // Then
        #expect(chunks.map(\.text) == ["the quick brown", "fox jumps over", "the lazy dog and", "runs away"])
        #expect(violations(of: chunks, in: text, limit: 16) == [])
    }

    @Test("a word longer than the limit is hard-cut")
    func longWordHardCut() {
        // Given
        let text = "Hi " + String(repeating: "x", count: 25) + " yo."

        // When
        let chunks = TextChunker.chunks(of: text, maxScalars: 10)

        // Then
        #expect(chunks.map(\.text) == ["Hi", "xxxxxxxxxx", "xxxxxxxxxx", "xxxxx yo."])
        #expect(violations(of: chunks, in: text, limit: 10) == [])
    }

    @Test("offsets and limits count Unicode scalars, not characters")
    func scalarOffsets() {
        // Given: the flag is one Character but two scalars
        let text = "🇫🇷 Oui. Non."

        // When
        let chunks = TextChunker.chunks(of: text, maxScalars: 7)

        // Then
        #expect(chunks == [TextChunk(text: "🇫🇷 Oui.", scalarOffset: 0), TextChunk(text: "Non.", scalarOffset: 8)])
    }

    @Test("empty or whitespace-only text gives no chunks")
    func emptyText() {
        #expect(TextChunker.chunks(of: "", maxScalars: 100).isEmpty)
        #expect(TextChunker.chunks(of: " \n\n \t", maxScalars: 100).isEmpty)
    }

    @Test("chunking holds its contract for many limits on mixed text")
    func manyLimits() {
        // Given
        let text = "Mr. Darcy’s « réponse » fut brève ! Pourquoi ? 3.14 est π.\n\n"
            + String(repeating: "Lorem ipsum dolor sit amet, consectetur adipiscing elit ", count: 5)
            + "supercalifragilisticexpialidocious.\n\nFin."

        for limit in 1...60 {
            // When
            let chunks = TextChunker.chunks(of: text, maxScalars: limit)

            // Then
            #expect(violations(of: chunks, in: text, limit: limit) == [], "limit \(limit)")
        }
    }

    @Test("firstSentenceAlone: the first sentence is a chunk of its own, the rest packed as before")
    func firstSentenceAlone() {
        // Given
        let text = "One. Two is here. Three follows. Four ends it."

        // When
        let alone = TextChunker.chunks(of: text, maxScalars: 700, firstSentenceAlone: true)
        let packed = TextChunker.chunks(of: text, maxScalars: 700)
        let single = TextChunker.chunks(of: "Only one sentence.", maxScalars: 700, firstSentenceAlone: true)

        // Then
        #expect(alone.map(\.text) == ["One.", "Two is here. Three follows. Four ends it."])
        #expect(alone.map(\.scalarOffset) == [0, 5])
        #expect(packed.map(\.text) == [text])
        #expect(single.map(\.text) == ["Only one sentence."])
    }
}
