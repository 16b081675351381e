/// Finds the quoted parts of a text: English double quotes (typographic and straight), single
/// quotes in a book that quotes with them (an apostrophe is never a quote), « » and » «, „ “,
/// and the em-dash dialogue lines of Spanish, French or Russian prose. A quotation nested in
/// another stays part of the outer one; a quotation left open at a paragraph's end ends there
/// and, when the next paragraph opens again, continues in it.
public enum QuotationFinder {
    /// The quoted parts of `scalars` in reading order.
    /// - Parameters:
    ///   - scalars: the text.
    ///   - paragraphs: its paragraphs (`ParagraphSplitter`).
    static func quotations(in scalars: [Unicode.Scalar], paragraphs: [Range<Int>]) -> [Quotation] {
        let singlesQuote = quotesWithSingleMarks(scalars)
        var result: [Quotation] = []
        var leftOpen = false
        for (number, paragraph) in paragraphs.enumerated() {
            var found = marked(scalars, paragraph, number: number, singles: singlesQuote)
            if found.parts.isEmpty {
                found.parts = dashed(scalars, paragraph, number: number)
            }
            if leftOpen, let first = found.parts.first, first.start <= paragraph.lowerBound + 2 {
                found.parts[0] = Quotation(
                    start: first.start, end: first.end, text: first.text, paragraph: number, continuesPrevious: true)
            }
            leftOpen = found.leftOpen
            result += found.parts
        }
        return result
    }

    /// The text of `scalars` in `range`, or nil when only blank space.
    static func part(_ scalars: [Unicode.Scalar], _ range: Range<Int>, paragraph: Int) -> Quotation? {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, scalars[lower].properties.isWhitespace { lower += 1 }
        while upper > lower, scalars[upper - 1].properties.isWhitespace { upper -= 1 }
        guard lower < upper else { return nil }
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars[lower..<upper])
        return Quotation(start: lower, end: upper, text: String(text), paragraph: paragraph)
    }

    /// Whether the book quotes with single marks: far more single marks open a word than
    /// double marks appear at all.
    private static func quotesWithSingleMarks(_ scalars: [Unicode.Scalar]) -> Bool {
        var doubles = 0
        var singleOpenings = 0
        for index in scalars.indices {
            switch scalars[index] {
            case "\"", "\u{201C}", "\u{201D}", "\u{201E}", "\u{00AB}", "\u{00BB}": doubles += 1
            case "'", "\u{2018}": if opensSingle(scalars, at: index) { singleOpenings += 1 }
            default: break
            }
        }
        return singleOpenings > 20 && doubles * 4 < singleOpenings
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }

    /// A single mark opens a quotation after a space or an opening bracket, before a word.
    private static func opensSingle(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        let before = index > 0 ? scalars[index - 1] : " "
        guard before.properties.isWhitespace || "([—-\"\u{201C}".unicodeScalars.contains(before) else { return false }
        guard index + 1 < scalars.count else { return false }
        let after = scalars[index + 1]
        return isLetter(after) || "\"\u{201C}.…—-".unicodeScalars.contains(after)
    }

    /// A single mark closes a quotation when no letter follows it (else it is an apostrophe).
    private static func closesSingle(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        guard index > 0, !scalars[index - 1].properties.isWhitespace else { return false }
        guard index + 1 < scalars.count else { return true }
        return !isLetter(scalars[index + 1])
    }

    private static func closers(for opener: Unicode.Scalar, singles: Bool) -> Set<Unicode.Scalar>? {
        switch opener {
        case "\"": return singles ? nil : ["\""]
        case "\u{201C}": return singles ? nil : ["\u{201D}", "\""]
        case "\u{201E}": return ["\u{201C}", "\u{201D}"]
        case "\u{00AB}": return ["\u{00BB}"]
        case "\u{00BB}": return ["\u{00AB}"]
        case "'", "\u{2018}": return singles ? ["'", "\u{2019}"] : nil
        default: return nil
        }
    }

    private static func marked(
        _ scalars: [Unicode.Scalar], _ paragraph: Range<Int>, number: Int, singles: Bool
    ) -> (parts: [Quotation], leftOpen: Bool) {
        var parts: [Quotation] = []
        var open: (opener: Unicode.Scalar, closers: Set<Unicode.Scalar>, start: Int, depth: Int)?
        for index in paragraph {
            let scalar = scalars[index]
            if var current = open {
                let single = scalar == "'" || scalar == "\u{2019}"
                if current.closers.contains(scalar), !single || closesSingle(scalars, at: index) {
                    if current.depth > 0 {
                        current.depth -= 1
                        open = current
                    } else {
                        if let part = part(scalars, current.start..<index, paragraph: number) { parts.append(part) }
                        open = nil
                    }
                } else if scalar == current.opener, !current.closers.contains(scalar),
                    scalar != "'", scalar != "\u{2018}" {
                    current.depth += 1
                    open = current
                }
                continue
            }
            guard let closers = closers(for: scalar, singles: singles) else { continue }
            if scalar == "'" || scalar == "\u{2018}", !opensSingle(scalars, at: index) { continue }
            if scalar == "\u{00BB}", index + 1 < paragraph.upperBound, scalars[index + 1].properties.isWhitespace {
                continue  // a French closing mark with nothing open
            }
            open = (scalar, closers, index + 1, 0)
        }
        if let current = open, let part = part(scalars, current.start..<paragraph.upperBound, paragraph: number) {
            parts.append(part)
            return (parts, true)
        }
        return (parts, false)
    }

    private static let dashes: Set<Unicode.Scalar> = ["\u{2014}", "\u{2015}", "\u{2013}"]

    /// A paragraph that opens with a dash is speech up to a dash after a space (the narrator
    /// cutting in), and speech again after the narrator's closing dash.
    private static func dashed(_ scalars: [Unicode.Scalar], _ paragraph: Range<Int>, number: Int) -> [Quotation] {
        guard dashes.contains(scalars[paragraph.lowerBound]) else { return [] }
        var parts: [Quotation] = []
        var speechStart: Int? = paragraph.lowerBound + 1
        var index = paragraph.lowerBound + 1
        while index < paragraph.upperBound {
            let scalar = scalars[index]
            if dashes.contains(scalar) {
                if let start = speechStart, scalars[index - 1].properties.isWhitespace {
                    if let part = part(scalars, start..<index, paragraph: number) { parts.append(part) }
                    speechStart = nil
                } else if speechStart == nil {
                    var next = index + 1
                    while next < paragraph.upperBound,
                        scalars[next].properties.isWhitespace || ".,;:".unicodeScalars.contains(scalars[next]) {
                        next += 1
                    }
                    speechStart = next
                    index = next
                    continue
                }
            }
            index += 1
        }
        if let start = speechStart, start < paragraph.upperBound,
            let part = part(scalars, start..<paragraph.upperBound, paragraph: number) {
            parts.append(part)
        }
        return parts
    }
}
