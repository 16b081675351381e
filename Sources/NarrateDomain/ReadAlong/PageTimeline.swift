/// When each sentence (and, where the engine times words, each word) of a page's text is spoken
/// in the page's audio: what a page that reads along highlights, and where a click on a sentence
/// starts the audio.
///
/// Text positions count UTF-16 code units of the text, as JavaScript strings and the DOM do;
/// times are seconds from the start of the audio.
public struct PageTimeline: Sendable, Hashable {
    /// A stretch of the text and when it is spoken: from `start` until `end`, where the next one
    /// starts (the last until the audio ends).
    public struct Span: Sendable, Hashable {
        public var start: Double
        public var end: Double
        /// UTF-16 code units of the text: `from..<to`.
        public var from: Int
        public var to: Int

        public init(start: Double, end: Double, from: Int, to: Int) {
            self.start = start
            self.end = end
            self.from = from
            self.to = to
        }
    }

    /// The audio's length in seconds.
    public var duration: Double
    /// The sentences that are spoken, in order, none overlapping; a sentence without a mark (only
    /// punctuation, say) is left out.
    public var sentences: [Span]
    /// The words, in order, when `timing` is `.words`; empty otherwise.
    public var words: [Span]
    public var timing: SpeechTiming

    public init(duration: Double, sentences: [Span], words: [Span], timing: SpeechTiming) {
        self.duration = duration
        self.sentences = sentences
        self.words = words
        self.timing = timing
    }

    /// The timeline of `text` spoken as audio of `sampleCount` samples at `sampleRate` with
    /// `wordMarks` (Unicode scalar offsets into `text`, as `SpeechAudio` has them).
    ///
    /// Sentences come from ``SentenceSplitter``. A sentence starts at its first mark's sample (the
    /// first one at 0, so the page is lit from the first sound) and ends where the next starts; a
    /// sentence whose marks come before the previous one's is joined to it. With `.words` timing
    /// each mark is a word, clipped to the text; with `.sentences` (Piper, Kokoro, a remote API:
    /// a mark per sentence or an estimate) only sentences are given. Marks outside the text are
    /// ignored; no sample rate or no mark, no spans.
    public static func make(text: String, wordMarks: [WordMark], sampleRate: Int, sampleCount: Int, timing: SpeechTiming) -> PageTimeline {
        let duration = sampleRate > 0 ? Double(max(sampleCount, 0)) / Double(sampleRate) : 0
        let scalars = Array(text.unicodeScalars)
        var marks = wordMarks.filter { $0.textOffset >= 0 && $0.textOffset < scalars.count && $0.textLength >= 0 }
        guard sampleRate > 0, !marks.isEmpty else { return PageTimeline(duration: duration, sentences: [], words: [], timing: timing) }
        marks.sort { ($0.sampleOffset, $0.textOffset) < ($1.sampleOffset, $1.textOffset) }
        // Where each scalar starts in UTF-16 (one more entry for the end).
        var utf16: [Int] = [0]
        utf16.reserveCapacity(scalars.count + 1)
        for scalar in scalars { utf16.append(utf16[utf16.count - 1] + UTF16.width(scalar)) }
        let seconds = { (sample: Int) in min(max(Double(sample) / Double(sampleRate), 0), duration) }

        // Each sentence's first mark in audio order (marks are sorted by sample).
        let ranges = SentenceSplitter.scalarRanges(in: scalars)
        var firstMark = [Int?](repeating: nil, count: ranges.count)
        for mark in marks {
            var low = 0, high = ranges.count
            while low < high {
                let middle = (low + high) / 2
                if ranges[middle].upperBound <= mark.textOffset { low = middle + 1 } else { high = middle }
            }
            if low < ranges.count, ranges[low].contains(mark.textOffset), firstMark[low] == nil { firstMark[low] = mark.sampleOffset }
        }
        var sentences: [Span] = []
        for (range, sample) in zip(ranges, firstMark) {
            guard let sample else { continue }
            let start = sentences.isEmpty ? 0 : seconds(sample)
            if let last = sentences.last, start < last.start {
                sentences[sentences.count - 1].to = utf16[range.upperBound]
                continue
            }
            if !sentences.isEmpty { sentences[sentences.count - 1].end = start }
            sentences.append(Span(start: start, end: duration, from: utf16[range.lowerBound], to: utf16[range.upperBound]))
        }

        var words: [Span] = []
        if timing == .words {
            for (index, mark) in marks.enumerated() {
                let end = index + 1 < marks.count ? seconds(marks[index + 1].sampleOffset) : duration
                let last = min(mark.textOffset + max(mark.textLength, 1), scalars.count)
                words.append(Span(start: seconds(mark.sampleOffset), end: end, from: utf16[mark.textOffset], to: utf16[last]))
            }
        }
        return PageTimeline(duration: duration, sentences: sentences, words: words, timing: timing)
    }
}
