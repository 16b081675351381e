/// A text with the pronunciations in force written in as eSpeak `[[…]]` phoneme spans, and the
/// way back to the positions of the text it was made from.
public struct PronouncedText: Sendable, Hashable {
    /// A replaced stretch: `original` scalars of the source became `replaced` scalars here.
    struct Replacement: Sendable, Hashable {
        var originalStart: Int
        var originalLength: Int
        var start: Int
        var length: Int
    }

    /// What eSpeak is given. Every `[[` in it opens a phoneme span of ours: a `[[` of the
    /// source text is written `[ [`.
    public var text: String
    /// How many words were given a pronunciation.
    public var pronouncedCount: Int
    var replacements: [Replacement]

    /// The position in the source text of position `offset` in `text`; a position inside a
    /// phoneme span is the start of the word it replaced.
    public func originalOffset(_ offset: Int) -> Int {
        var delta = 0
        for replacement in replacements {
            if offset < replacement.start { break }
            if offset < replacement.start + replacement.length { return replacement.originalStart }
            delta = replacement.start + replacement.length - (replacement.originalStart + replacement.originalLength)
        }
        return offset - delta
    }

    /// `mark` (made from `text`) moved onto the source text.
    public func originalMark(_ mark: WordMark) -> WordMark {
        guard !replacements.isEmpty else { return mark }
        let start = originalOffset(mark.textOffset)
        let end = originalEnd(mark.textOffset + mark.textLength)
        return WordMark(textOffset: start, textLength: max(0, end - start), sampleOffset: mark.sampleOffset)
    }

    /// Like `originalOffset`, but an end inside a span is the end of the word it replaced.
    private func originalEnd(_ offset: Int) -> Int {
        for replacement in replacements where offset > replacement.start && offset <= replacement.start + replacement.length {
            return replacement.originalStart + replacement.originalLength
        }
        return originalOffset(offset)
    }
}
