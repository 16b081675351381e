/// Timing for audio that came without word marks (a remote speech API): one mark per sentence,
/// placed by the share of the text's characters spoken before it. Subtitles built from these marks
/// change cue at sentence starts; their times are estimates, off by as much as the speech's pace
/// varies within the text.
public enum SentenceTiming {
    /// One mark per sentence of `text` (``SentenceSplitter``), covering the sentence, at the sample
    /// `sampleCount × (characters before it ÷ characters of all sentences)`. Whitespace between
    /// sentences counts for nothing; the first mark is at sample 0. No sentences, no marks.
    public static func marks(for text: String, sampleCount: Int) -> [WordMark] {
        let scalars = Array(text.unicodeScalars)
        let sentences = SentenceSplitter.scalarRanges(in: scalars)
        let total = sentences.reduce(0) { $0 + $1.count }
        guard total > 0, sampleCount >= 0 else { return [] }
        var before = 0
        return sentences.map { range in
            defer { before += range.count }
            let sample = Int((Double(sampleCount) * Double(before) / Double(total)).rounded(.down))
            return WordMark(textOffset: range.lowerBound, textLength: range.count, sampleOffset: sample)
        }
    }
}
