/// Where a subtitle cue (or a line of one) may be cut: only in the whitespace between two words, never just
/// after an opening quotation mark or bracket, never just before punctuation that closes the text before it.
///
/// A token is a run of scalars without whitespace ("1,652", "(1805-1875)", "Gutenberg™", "“Hello,"): it is
/// never cut. The rules work on tokens, so they read the same for a text (``SubtitleCueBuilder``) and for the
/// lines of a cue (the subtitle formatters).
public enum WordBreak {
    /// Whether a cut may fall in the whitespace between the token `previous` and the token `next`.
    ///
    /// Not after a token that ends in an opening bracket (`(`, `[`, `{`, `¿`, `¡`), nor after a token made only
    /// of punctuation that ends in a quotation mark that may open (`« Bonjour`, a stray `“ Hello`); not before a
    /// token made only of punctuation that starts with a closing or final mark (`monsieur ! »`, `word ”`).
    public static func allowsBreak(
        after previous: some BidirectionalCollection<Unicode.Scalar>, before next: some Collection<Unicode.Scalar>
    ) -> Bool {
        guard let last = previous.last, let first = next.first else { return false }
        if last.isOpeningBracket { return false }
        if last.opensWhenAlone, !previous.contains(where: \.isWordScalar) { return false }
        if first.closesOrEnds, !next.contains(where: \.isWordScalar) { return false }
        return true
    }

    /// The position where a cue starting with the word that eSpeak marked at `offset` would begin, or nil when
    /// no cue may begin there.
    ///
    /// eSpeak marks a word at its first letter or digit (after an opening quote: `“|Hello`), but also inside
    /// tokens it speaks as several words (`1,|6|52`, `1805-|1875`, `Gutenberg|™`) and, after such a token,
    /// sometimes a scalar or two away from the word (`h|e had`, or in the space before it). So the position is
    /// the start of the token the mark falls in, when only opening marks stand between that start and the mark,
    /// or the next token's start when the mark falls in whitespace; it must lie strictly inside `range` and be
    /// a place ``allowsBreak(after:before:)`` accepts.
    public static func cueStart(
        forWordAt offset: Int, in scalars: [Unicode.Scalar], within range: Range<Int>
    ) -> Int? {
        guard range.contains(offset) else { return nil }
        var start = offset
        if scalars[start].isSpaceLike {
            while start < range.upperBound, scalars[start].isSpaceLike { start += 1 }
        } else {
            while start > range.lowerBound, !scalars[start - 1].isSpaceLike, scalars[start - 1].mayOpen {
                start -= 1
            }
            guard start > range.lowerBound, scalars[start - 1].isSpaceLike else { return nil }
        }
        guard start > range.lowerBound, start < range.upperBound else { return nil }
        return allowsBreak(at: start, in: scalars, within: range) ? start : nil
    }

    /// Whether a cut may fall just before `position`, the start of a token after whitespace, within `range`.
    static func allowsBreak(at position: Int, in scalars: [Unicode.Scalar], within range: Range<Int>) -> Bool {
        var nextEnd = position
        while nextEnd < range.upperBound, !scalars[nextEnd].isSpaceLike { nextEnd += 1 }
        var previousEnd = position
        while previousEnd > range.lowerBound, scalars[previousEnd - 1].isSpaceLike { previousEnd -= 1 }
        var previousStart = previousEnd
        while previousStart > range.lowerBound, !scalars[previousStart - 1].isSpaceLike { previousStart -= 1 }
        return allowsBreak(
            after: scalars[previousStart..<previousEnd], before: scalars[position..<nextEnd]
        )
    }
}

extension Unicode.Scalar {
    /// A bracket or mark that only ever opens.
    fileprivate var isOpeningBracket: Bool {
        switch self {
        case "(", "[", "{", "¿", "¡", "⟨", "【", "「", "『", "（", "［", "｛": true
        default: false
        }
    }

    /// A quotation mark that opens in some language: “ ‘ „ ‚ open in English or German, « ‹ in French,
    /// » › in German, straight quotes anywhere.
    fileprivate var mayOpenQuotation: Bool {
        switch self {
        case "“", "‘", "„", "‚", "«", "‹", "»", "›", "\"", "'", "‟", "‛": true
        default: false
        }
    }

    /// A quotation mark that opens when it stands apart from the word (`« Bonjour`): a French » stands apart
    /// only when it closes.
    fileprivate var opensWhenAlone: Bool { mayOpenQuotation && self != "»" && self != "›" }

    /// A mark that may stand before a word it opens: a bracket or quotation mark.
    fileprivate var mayOpen: Bool { isOpeningBracket || mayOpenQuotation }

    /// A mark that closes or ends what comes before it: a closing quote or bracket, or final punctuation.
    fileprivate var closesOrEnds: Bool {
        switch self {
        case ",", ".", ";", ":", "!", "?", "…", "»", "›", "”", "’", ")", "]", "}", "\"", "'", "%", "‰",
             "」", "』", "）", "］", "｝", "、", "。", "，", "；", "：", "！", "？":
            true
        default: false
        }
    }
}
