/// Turns a text and the word marks of its audio into subtitle cues, one per sentence.
public enum SubtitleCueBuilder {
    /// One cue per sentence of `text`, timed from `wordMarks`.
    ///
    /// Sentences come from ``SentenceSplitter``, which also ends a sentence at every blank line, so no cue spans
    /// two paragraphs unless a paragraph has no spoken word. A cue starts at its first word's sample and ends
    /// where the next cue starts (the last at `totalSamples`), never later than `totalSamples`. Sentences with
    /// no word marks (only punctuation, say) are merged into the cue before them (the first ones into the cue
    /// after them); a cue that would last no time at all joins the next (the last one joins the one before).
    /// A cue longer than `maxCueSeconds` is split into several between words, preferring a comma or
    /// semicolon near the middle; a single word longer than that stays whole. A cut falls only in whitespace
    /// where ``WordBreak`` allows it: never inside a token eSpeak speaks as several words ("1,652",
    /// "Gutenberg™"), never just after an opening quote or bracket. A word ends where the next one starts (the
    /// last at the cue's end).
    ///
    /// Marks may come in any order (they are sorted by `sampleOffset`); marks whose `textOffset` falls outside
    /// `text` are ignored, and a mark's text is clipped to the text. Without any usable mark there are no cues.
    /// Linear in the length of the text, apart from sorting the marks.
    /// - Parameters:
    ///   - text: the text the audio was made from.
    ///   - wordMarks: the audio's word events; `textOffset` counts Unicode scalars of `text`.
    ///   - sampleRate: samples per second of the audio; no cues when not positive.
    ///   - totalSamples: the length of the audio in samples.
    ///   - maxCueSeconds: the longest a cue should last.
    public static func cues(
        text: String, wordMarks: [WordMark], sampleRate: Int, totalSamples: Int, maxCueSeconds: Double = 7
    ) -> [SubtitleCue] {
        guard sampleRate > 0 else { return [] }
        // Everything below works on scalar offsets, so WordMark offsets are used as they are: one pass over the
        // scalars records where each starts in the UTF-8 bytes, and strings are cut from those bytes.
        var scalars: [Unicode.Scalar] = []
        var utf8Offsets: [Int] = [0]
        scalars.reserveCapacity(text.utf8.count)
        utf8Offsets.reserveCapacity(text.utf8.count + 1)
        var utf8Offset = 0
        for scalar in text.unicodeScalars {
            scalars.append(scalar)
            utf8Offset += UTF8.width(scalar)
            utf8Offsets.append(utf8Offset)
        }
        let total = max(totalSamples, 0)
        var marks = wordMarks.filter { $0.textOffset >= 0 && $0.textOffset < scalars.count }
        guard !marks.isEmpty else { return [] }
        // eSpeak reports marks in order, so the sort is usually skipped.
        if !zip(marks, marks.dropFirst()).allSatisfy({ !spokenBefore($1, $0) }) {
            marks.sort(by: spokenBefore)
        }
        let sentences = SentenceSplitter.scalarRanges(in: scalars)
        guard !sentences.isEmpty else { return [] }

        let segments = mergedSegments(sentences: sentences, marks: marks, totalSamples: total)
        let splitter = SubtitleCueSplitter(
            scalars: scalars,
            utf8: Array(text.utf8),
            utf8Offsets: utf8Offsets,
            sampleRate: Double(sampleRate),
            maxSamples: maxCueSeconds * Double(sampleRate)
        )
        var cues: [SubtitleCue] = []
        cues.reserveCapacity(segments.count)
        for (index, segment) in segments.enumerated() {
            let end = index + 1 < segments.count ? segments[index + 1].start : total
            splitter.appendCues(of: segment, end: end, to: &cues)
        }
        return cues
    }

    /// Audio order: by sample, then by text position.
    private static func spokenBefore(_ first: WordMark, _ second: WordMark) -> Bool {
        first.sampleOffset != second.sampleOffset
            ? first.sampleOffset < second.sampleOffset
            : first.textOffset < second.textOffset
    }

    // MARK: - Segments

    /// A stretch of text (one sentence or more) with its marks, sorted by sample, and its start sample.
    struct Segment {
        var text: Range<Int>
        var marks: [WordMark]
        var start: Int

        /// This segment followed by `next`, starting where this one starts.
        func joined(with next: Segment) -> Segment {
            Segment(text: text.lowerBound..<next.text.upperBound, marks: marks + next.marks, start: start)
        }
    }

    /// The sentences with their marks, unspoken sentences and zero-length segments merged into a neighbour,
    /// starts clamped to `0...totalSamples` and never before the previous start.
    private static func mergedSegments(
        sentences: [Range<Int>], marks: [WordMark], totalSamples: Int
    ) -> [Segment] {
        var marksBySentence = [[WordMark]](repeating: [], count: sentences.count)
        for mark in marks {
            marksBySentence[sentenceIndex(containing: mark.textOffset, in: sentences)].append(mark)
        }

        var segments: [Segment] = []
        var unspokenStart: Int?
        for (index, range) in sentences.enumerated() {
            let own = marksBySentence[index]
            guard let first = own.first else {
                if let last = segments.indices.last {
                    segments[last].text = segments[last].text.lowerBound..<range.upperBound
                } else if unspokenStart == nil {
                    unspokenStart = range.lowerBound
                }
                continue
            }
            // Text order and audio order can disagree on bad input; a cue must not start before the one before it.
            let start = max(min(max(first.sampleOffset, 0), totalSamples), segments.last?.start ?? 0)
            let lower = unspokenStart ?? range.lowerBound
            segments.append(Segment(text: lower..<range.upperBound, marks: own, start: start))
            unspokenStart = nil
        }

        // A segment that would last no time could never be read. Its successor starts at the same sample, so it
        // joins that one; or it is the last and starts at the very end of the audio, so it joins the one before.
        var merged: [Segment] = []
        var carried: Segment?
        for index in segments.indices {
            var segment = segments[index]
            if let previous = carried {
                segment = previous.joined(with: segment)
                carried = nil
            }
            let isLast = index + 1 == segments.count
            let end = isLast ? totalSamples : segments[index + 1].start
            if end > segment.start {
                merged.append(segment)
            } else if !isLast {
                carried = segment
            } else if let previous = merged.popLast() {
                merged.append(previous.joined(with: segment))
            } else {
                merged.append(segment)
            }
        }
        return merged
    }

    /// The index of the sentence holding scalar `offset`: the last one starting at or before it, so marks in the
    /// whitespace between sentences go to the sentence before; marks before the first sentence go to it.
    private static func sentenceIndex(containing offset: Int, in sentences: [Range<Int>]) -> Int {
        var low = 0
        var high = sentences.count
        while low < high {
            let middle = (low + high) / 2
            if sentences[middle].lowerBound <= offset {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return max(low - 1, 0)
    }
}
