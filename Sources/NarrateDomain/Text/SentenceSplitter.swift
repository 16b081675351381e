/// Finds the sentences of a text, for chunking before synthesis and for cutting long paragraphs into pages.
public enum SentenceSplitter {
    /// Sentence ranges in `text`, in order.
    ///
    /// A sentence ends after `.`, `!`, `?` or `…` (or a run of them), optionally followed by closing quotes or
    /// brackets, then whitespace; a blank line or a form feed always ends one. No split after common
    /// abbreviations (Mr. Mrs. Dr. St. e.g. i.e. etc. vs. No. 5, z.B., Mme …), single capital initials
    /// ("J. R. Tolkien"), inside numbers (3.14), or before a word that starts in lower case ("“Why?” said he.").
    /// French spacing (« Oui ! ») and German quotes („Ja.“) are understood. Each range is trimmed of whitespace.
    public static func sentenceRanges(in text: String) -> [Range<String.Index>] {
        let scalarView = text.unicodeScalars
        let offsets = scalarRanges(in: Array(scalarView))
        // Offsets ascend, so one forward walk converts them all: linear, not quadratic.
        var index = scalarView.startIndex
        var position = 0
        func stringIndex(at offset: Int) -> String.Index {
            scalarView.formIndex(&index, offsetBy: offset - position)
            position = offset
            return index
        }
        return offsets.map { range in
            let lower = stringIndex(at: range.lowerBound)
            return lower..<stringIndex(at: range.upperBound)
        }
    }

    /// The sentences of `text` (see ``sentenceRanges(in:)``), as strings.
    public static func sentences(in text: String) -> [String] {
        sentenceRanges(in: text).map { String(text[$0]) }
    }

    /// Sentence ranges as Unicode scalar offsets into `scalars`; the engine behind the public functions,
    /// shared with the chunker and the paginator so they need not convert `String.Index` values.
    static func scalarRanges(in scalars: [Unicode.Scalar]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        let count = scalars.count
        var start: Int?
        var visibleEnd = 0
        var index = 0

        while index < count {
            let scalar = scalars[index]
            if scalar.isSpaceLike {
                var next = index
                var newlines = 0
                var formFeed = false
                while next < count, scalars[next].isSpaceLike {
                    if scalars[next].isNewline { newlines += 1 }
                    if scalars[next] == "\u{0C}" || scalars[next] == "\u{2029}" { formFeed = true }
                    next += 1
                }
                if let sentenceStart = start, newlines >= 2 || formFeed {
                    ranges.append(sentenceStart..<visibleEnd)
                    start = nil
                }
                index = next
                continue
            }
            if start == nil { start = index }
            guard scalar.isTerminator else {
                index += 1
                visibleEnd = index
                continue
            }

            var end = index + 1
            while end < count, scalars[end].isTerminator { end += 1 }
            let singleDot = scalar == "." && end == index + 1
            while end < count, scalars[end].isCloser { end += 1 }
            // French typography puts a space before the closing guillemet: « Oui. » — but in German » opens
            // a quotation (»Gut.«), so only a guillemet not followed by a letter or digit closes.
            var afterSpace = end
            while afterSpace < count, scalars[afterSpace] == " " || scalars[afterSpace] == "\u{A0}"
                || scalars[afterSpace] == "\u{202F}" {
                afterSpace += 1
            }
            if afterSpace > end, afterSpace < count, scalars[afterSpace] == "»" || scalars[afterSpace] == "›",
               afterSpace + 1 == count || !scalars[afterSpace + 1].isWordScalar {
                end = afterSpace + 1
                while end < count, scalars[end].isCloser { end += 1 }
            }
            visibleEnd = end
            if end < count, !scalars[end].isSpaceLike {
                // "3.14", "U.S.A", "?!" inside a word: not a boundary.
                index = end
                continue
            }
            if let sentenceStart = start,
               endsSentence(scalars, tokenEnd: index, singleDot: singleDot, after: end) {
                ranges.append(sentenceStart..<end)
                start = nil
            }
            index = end
        }
        if let sentenceStart = start {
            ranges.append(sentenceStart..<visibleEnd)
        }
        return ranges
    }

    /// Whether the terminator at `tokenEnd` (whose run, closers included, ends at `after`) ends a sentence.
    private static func endsSentence(
        _ scalars: [Unicode.Scalar], tokenEnd: Int, singleDot: Bool, after: Int
    ) -> Bool {
        var next = after
        while next < scalars.count, scalars[next].isSpaceLike { next += 1 }
        guard next < scalars.count else { return true }
        let following = scalars[next]
        if following.properties.isLowercase { return false }
        guard singleDot else { return true }

        var tokenStart = tokenEnd
        while tokenStart > 0, !scalars[tokenStart - 1].isSpaceLike { tokenStart -= 1 }
        // Skip opening quotes, brackets and underscores (Gutenberg italics) before the word.
        while tokenStart < tokenEnd, !scalars[tokenStart].properties.isAlphabetic,
              scalars[tokenStart].properties.numericType == nil {
            tokenStart += 1
        }
        let token = scalars[tokenStart..<tokenEnd]
        if token.isEmpty { return true }
        if token.count == 1, let letter = token.first, letter.properties.isUppercase { return false }
        // Dotted initials and abbreviations: J.R.R, U.S, e.g, z.B, d.h
        if token.contains("."), token.split(separator: ".").allSatisfy({ $0.count == 1 }) { return false }

        var word = ""
        word.unicodeScalars.append(contentsOf: token)
        word = word.lowercased()
        if numberAbbreviations.contains(word) {
            return !(following.properties.numericType != nil || following == "#")
        }
        return !abbreviations.contains(word)
    }

    /// Abbreviations after which a period does not end a sentence (lowercased, without the final period).
    private static let abbreviations: Set<String> = [
        // English
        "mr", "mrs", "ms", "messrs", "dr", "st", "prof", "sr", "jr", "rev", "hon", "gen", "col", "capt",
        "lt", "sgt", "gov", "mt", "ft", "vs", "etc", "cf", "fig", "figs", "vol", "vols", "ch", "chap",
        "pp", "p", "approx", "dept", "inc", "ltd", "co", "corp", "viz", "al", "esq",
        "feb", "apr", "aug", "sept", "oct", "nov",
        "e.g", "i.e",
        // French
        "mme", "mmes", "mlle", "mlles", "mm", "env", "éd",
        // German
        "z.b", "d.h", "u.a", "usw", "bzw", "vgl", "hr", "hrn", "fr", "frl", "ca", "geb", "ggf", "evtl",
        "inkl", "str", "bd",
    ]

    /// Abbreviations that are also ordinary words ("no"), taken as abbreviations only before a number.
    private static let numberAbbreviations: Set<String> = ["no", "nos", "nr", "art"]
}
