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
        let context = Context(
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
            context.appendCues(of: segment, end: end, to: &cues)
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
    private struct Segment {
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

    // MARK: - Cues

    private struct Context {
        let scalars: [Unicode.Scalar]
        /// The text's UTF-8 bytes, and where each scalar starts in them (one more entry for the end).
        let utf8: [UInt8]
        let utf8Offsets: [Int]
        let sampleRate: Double
        let maxSamples: Double

        /// Appends the cue (or cues, when it is too long) of `segment`, which ends at sample `end`.
        func appendCues(of segment: Segment, end: Int, to cues: inout [SubtitleCue]) {
            let marks = segment.marks
            let end = max(end, segment.start)
            let wordStarts = marks.map { min(max($0.sampleOffset, segment.start), end) }
            // Where a cue starting with each word would begin in the text; nil where no cue may begin (inside a
            // token, after an opening quote): those words never start a piece.
            let cueStarts = marks.map {
                WordBreak.cueStart(forWordAt: $0.textOffset, in: scalars, within: segment.text)
            }
            let pieces = split(
                wordStarts: wordStarts, cueStarts: cueStarts, textStart: segment.text.lowerBound,
                start: segment.start, end: end
            )

            var textStart = segment.text.lowerBound
            for (number, piece) in pieces.enumerated() {
                let isLast = number + 1 == pieces.count
                let pieceStart = number == 0 ? segment.start : wordStarts[piece.lowerBound]
                let pieceEnd = isLast ? end : wordStarts[piece.upperBound]
                // `split` only ends a piece before a word with a cue start past the previous one.
                let textEnd = isLast ? segment.text.upperBound : cueStarts[piece.upperBound] ?? textStart
                let words = piece.map { index in
                    SubtitleCue.Word(
                        start: seconds(wordStarts[index]),
                        end: seconds(index + 1 < piece.upperBound ? wordStarts[index + 1] : pieceEnd),
                        text: folded(wordRange(of: marks[index]))
                    )
                }
                cues.append(SubtitleCue(
                    start: seconds(pieceStart),
                    end: seconds(pieceEnd),
                    text: folded(textStart..<textEnd),
                    words: words
                ))
                textStart = textEnd
            }
        }

        /// Word-index ranges of the pieces a segment is cut into so that none lasts longer than `maxSamples`
        /// (unless no word within the limit may start a cue). A piece starts only at a word with a cue start
        /// (`cueStarts`) past the previous piece's, so text is cut between words, in text order. Each cut is the
        /// word start nearest an even share of what remains, with a pull towards cuts after a comma or semicolon.
        private func split(
            wordStarts: [Int], cueStarts: [Int?], textStart: Int, start: Int, end: Int
        ) -> [Range<Int>] {
            var pieces: [Range<Int>] = []
            var first = 0
            var textStart = textStart
            let count = wordStarts.count
            func canStartPiece(_ index: Int, after pieceStart: Int) -> Bool {
                guard wordStarts[index] > pieceStart, let cueStart = cueStarts[index] else { return false }
                return cueStart > textStart
            }
            while first < count {
                let pieceStart = first == 0 ? start : wordStarts[first]
                let remaining = Double(end - pieceStart)
                guard remaining > maxSamples, first + 1 < count else {
                    pieces.append(first..<count)
                    break
                }
                let share = remaining / (remaining / maxSamples).rounded(.up)
                let ideal = Double(pieceStart) + share
                var cut: Int?
                var bestDistance = Double.infinity
                var candidate = first + 1
                while candidate < count, Double(wordStarts[candidate] - pieceStart) <= maxSamples {
                    if canStartPiece(candidate, after: pieceStart), let cueStart = cueStarts[candidate] {
                        var distance = abs(Double(wordStarts[candidate]) - ideal)
                        if endsClause(before: cueStart) { distance -= share / 4 }
                        if distance < bestDistance {
                            bestDistance = distance
                            cut = candidate
                        }
                    }
                    candidate += 1
                }
                // No word within the limit may start a cue (a very long word or pause, a long token): cut at the
                // next word that may, so no piece lasts no time at all.
                let next = cut ?? (first + 1..<count).first { canStartPiece($0, after: pieceStart) } ?? count
                pieces.append(first..<next)
                if next < count, let cueStart = cueStarts[next] { textStart = cueStart }
                first = next
            }
            return pieces
        }

        /// Whether the text before `position` ends a clause: its last scalar before the whitespace is a comma,
        /// semicolon, dash or closing mark.
        private func endsClause(before position: Int) -> Bool {
            var index = position - 1
            while index >= 0, isSpace(scalars[index]) { index -= 1 }
            guard index >= 0 else { return false }
            switch scalars[index] {
            case ",", ";", ":", "—", "–", ")", "»", "”", "\u{060C}", "、", "，", "；": return true
            default: return false
            }
        }

        private func wordRange(of mark: WordMark) -> Range<Int> {
            let upper = mark.textOffset + min(max(mark.textLength, 0), scalars.count - mark.textOffset)
            return mark.textOffset..<upper
        }

        private func seconds(_ sample: Int) -> Double {
            Double(sample) / sampleRate
        }

        /// The scalars in `range` as a string, each run of whitespace (line breaks included) as one space,
        /// none at either end.
        private func folded(_ range: Range<Int>) -> String {
            var lower = range.lowerBound
            var upper = range.upperBound
            while lower < upper, isSpace(scalars[lower]) { lower += 1 }
            while upper > lower, isSpace(scalars[upper - 1]) { upper -= 1 }
            // Usually there is nothing to fold: the bytes are copied as they are.
            var needsFolding = false
            var previousWasSpace = false
            for index in lower..<upper {
                let scalar = scalars[index]
                guard isSpace(scalar) else {
                    previousWasSpace = false
                    continue
                }
                if previousWasSpace || scalar != " " {
                    needsFolding = true
                    break
                }
                previousWasSpace = true
            }
            guard needsFolding else {
                return String(decoding: utf8[utf8Offsets[lower]..<utf8Offsets[upper]], as: UTF8.self)
            }

            var bytes: [UInt8] = []
            bytes.reserveCapacity(utf8Offsets[upper] - utf8Offsets[lower])
            var runStart = lower
            var index = lower
            while index < upper {
                guard isSpace(scalars[index]) else {
                    index += 1
                    continue
                }
                bytes.append(contentsOf: utf8[utf8Offsets[runStart]..<utf8Offsets[index]])
                bytes.append(0x20)
                while index < upper, isSpace(scalars[index]) { index += 1 }
                runStart = index
            }
            bytes.append(contentsOf: utf8[utf8Offsets[runStart]..<utf8Offsets[upper]])
            return String(decoding: bytes, as: UTF8.self)
        }

        /// `isSpaceLike` (Unicode White_Space), without a property lookup for the letters of most scripts.
        @inline(__always)
        private func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.value {
            case 0x20, 0x09...0x0D, 0x85, 0xA0: true
            case 0..<0x1680: false
            default: scalar.isSpaceLike
            }
        }
    }
}
