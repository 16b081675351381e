/// Cuts normalized text into pieces no longer than a speech engine accepts in one call.
public enum TextChunker {
    /// Pieces of `text` (already normalized) of at most `maxScalars` Unicode scalars each, in order.
    ///
    /// Cuts at sentence boundaries; paragraphs may share a chunk (keeping the `"\n\n"` between them) as long as
    /// the limit holds; a sentence longer than the limit is cut at a word boundary (whitespace), a word longer
    /// than the limit is hard-cut (never between a letter and its combining mark, when avoidable). Every chunk
    /// is an exact substring of `text` with no leading/trailing whitespace, and `scalarOffset` is where it
    /// starts. Empty/whitespace-only text → `[]`. A `maxScalars` below 1 counts as 1.
    /// With `firstSentenceAlone`, the first sentence is a chunk of its own (a Piper voice: its
    /// audio comes as soon as that one sentence is spoken, where a whole chunk takes seconds).
    public static func chunks(of text: String, maxScalars: Int, firstSentenceAlone: Bool = false) -> [TextChunk] {
        let limit = max(1, maxScalars)
        let scalars = Array(text.unicodeScalars)
        var pieces: [Range<Int>] = []
        var open: Range<Int>?

        for (index, sentence) in SentenceSplitter.scalarRanges(in: scalars).enumerated() {
            // The second sentence never joins the first when the first stands alone.
            if !(firstSentenceAlone && index == 1), let current = open, sentence.upperBound - current.lowerBound <= limit {
                open = current.lowerBound..<sentence.upperBound
                continue
            }
            if let current = open { pieces.append(current) }
            open = nil
            if sentence.count <= limit {
                open = sentence
            } else {
                pieces.append(contentsOf: split(sentence, of: scalars, limit: limit))
            }
        }
        if let current = open { pieces.append(current) }

        return pieces.map { range in
            var chunk = ""
            chunk.unicodeScalars.append(contentsOf: scalars[range])
            return TextChunk(text: chunk, scalarOffset: range.lowerBound)
        }
    }

    /// Cuts one over-long sentence at the last whitespace that keeps each piece within `limit`.
    private static func split(_ sentence: Range<Int>, of scalars: [Unicode.Scalar], limit: Int) -> [Range<Int>] {
        var pieces: [Range<Int>] = []
        var start = sentence.lowerBound
        let end = sentence.upperBound
        while end - start > limit {
            // `scalars[cut]` being whitespace means the piece `start..<cut` fits.
            var cut = start + limit
            while cut > start, !scalars[cut].isSpaceLike { cut -= 1 }
            var next: Int
            if cut > start {
                next = cut
                while cut > start, scalars[cut - 1].isSpaceLike { cut -= 1 }
            } else {
                cut = start + limit
                while cut > start + 1, scalars[cut].isCombining { cut -= 1 }
                next = cut
            }
            pieces.append(start..<cut)
            while next < end, scalars[next].isSpaceLike { next += 1 }
            start = next
        }
        if start < end { pieces.append(start..<end) }
        return pieces
    }
}
