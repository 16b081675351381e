/// Cuts a text into paragraphs: runs of lines between blank lines, and a line on its own when
/// the text marks paragraphs with one line each.
enum ParagraphSplitter {
    /// The paragraphs of `scalars` as offset ranges, blank space at either end left out.
    static func paragraphs(in scalars: [Unicode.Scalar]) -> [Range<Int>] {
        let oneLineEach = !scalars.isEmpty && !hasBlankLine(scalars)
        var result: [Range<Int>] = []
        var start = 0
        var index = 0
        while index < scalars.count {
            guard scalars[index] == "\n" else {
                index += 1
                continue
            }
            var next = index + 1
            var blank = oneLineEach
            var probe = next
            while probe < scalars.count, scalars[probe] == " " || scalars[probe] == "\t" || scalars[probe] == "\r" {
                probe += 1
            }
            if probe < scalars.count, scalars[probe] == "\n" {
                blank = true
                next = probe
            }
            if blank {
                append(start..<index, scalars, to: &result)
                start = next
            }
            index = next
        }
        append(start..<scalars.count, scalars, to: &result)
        return result
    }

    private static func hasBlankLine(_ scalars: [Unicode.Scalar]) -> Bool {
        var lastNewline = -1
        for (index, scalar) in scalars.enumerated() {
            if scalar == "\n" {
                if lastNewline >= 0 {
                    let between = scalars[(lastNewline + 1)..<index]
                    if between.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { return true }
                }
                lastNewline = index
            }
        }
        return false
    }

    private static func append(_ range: Range<Int>, _ scalars: [Unicode.Scalar], to result: inout [Range<Int>]) {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, scalars[lower].properties.isWhitespace { lower += 1 }
        while upper > lower, scalars[upper - 1].properties.isWhitespace { upper -= 1 }
        if lower < upper { result.append(lower..<upper) }
    }
}
