/// Turns one segment of a text (a sentence or more, with its word marks) into timed subtitle cues:
/// one, or several cut between words when it lasts longer than the limit, each with its words and
/// its text with white space folded. ``SubtitleCueBuilder`` makes the segments.
struct SubtitleCueSplitter {
    let scalars: [Unicode.Scalar]
    /// The text's UTF-8 bytes, and where each scalar starts in them (one more entry for the end).
    let utf8: [UInt8]
    let utf8Offsets: [Int]
    let sampleRate: Double
    let maxSamples: Double

    /// Appends the cue (or cues, when it is too long) of `segment`, which ends at sample `end`.
    func appendCues(of segment: SubtitleCueBuilder.Segment, end: Int, to cues: inout [SubtitleCue]) {
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
