/// Finds the spoken text, piece by piece and in order, in the visible text of a book's documents.
///
/// What was spoken is the book's normalized page text: the documents' text with whitespace folded,
/// and without what the reader skipped (page numbers, note references, front matter, whole
/// documents). So each piece is looked for from where the previous one ended, without whitespace,
/// and may step over a little text the documents have and the speech has not (a page number
/// inside a sentence) or, rarely, a character the other way round. A piece that cannot be found
/// is left out (its audio then goes without highlight); the next piece is looked for from the same
/// place. Short pieces are looked for only near that place, so a missing "No." cannot jump the
/// search to a far-away one.
public struct ReadAlongAligner {
    /// Where a piece was found: a document and the range of its visible scalars.
    public struct Match: Sendable, Hashable {
        public var document: Int
        public var scalars: ClosedRange<Int>

        public init(document: Int, scalars: ClosedRange<Int>) {
            self.document = document
            self.scalars = scalars
        }
    }

    /// The documents' visible scalars (`XHTMLDocument.scalars`), in reading order.
    private let documents: [[Unicode.Scalar]]
    /// How many text scalars a piece may step over at once.
    static let maxGap = 80
    /// How far a short piece may be from where the previous one ended.
    static let shortReach = 400
    /// Pieces with fewer scalars than this are short.
    static let shortLength = 16
    /// How many documents after the current one are searched for a piece not found in it.
    static let documentReach = 6

    /// Where the search goes on: a document and a scalar in it.
    public private(set) var document = 0
    public private(set) var position = 0
    private var hasMatched = false

    public init(documents: [[Unicode.Scalar]]) {
        self.documents = documents
    }

    /// Finds the next piece, after the previous one found.
    public mutating func next(_ text: String) -> Match? {
        let unit = Array(text.unicodeScalars.lazy.filter { !XHTMLDocument.isIgnorable($0) })
        guard !unit.isEmpty, !documents.isEmpty else { return nil }
        // Until something is found, the piece may be anywhere (a selection starting mid-book).
        let lastDocument = hasMatched ? min(documents.count - 1, document + Self.documentReach) : documents.count - 1
        var candidate = document
        while candidate <= lastDocument {
            let start = candidate == document ? position : 0
            let reach = hasMatched && unit.count < Self.shortLength ? Self.shortReach : Int.max
            if let found = Self.find(unit, in: documents[candidate], from: start, reach: reach) {
                document = candidate
                position = found.upperBound + 1
                hasMatched = true
                return Match(document: candidate, scalars: found)
            }
            candidate += 1
        }
        return nil
    }

    /// Finds a piece that was passed over (a short heading too far from the piece before it) in
    /// the text between `start` and the piece found after it, `next`: from `start` when that is in
    /// the same document, else from the top of `next`'s document. Moves `start` past what it finds.
    public func find(_ text: String, after start: inout (document: Int, position: Int), before next: Match) -> Match? {
        let unit = Array(text.unicodeScalars.lazy.filter { !XHTMLDocument.isIgnorable($0) })
        let from = start.document == next.document ? start.position : 0
        guard !unit.isEmpty, from < next.scalars.lowerBound,
              let found = Self.find(unit, in: documents[next.document], from: from, reach: Int.max, until: next.scalars.lowerBound) else { return nil }
        start = (next.document, found.upperBound + 1)
        return Match(document: next.document, scalars: found)
    }

    /// Finds the next piece within `range` of `document` (the words of a sentence found there).
    public static func find(_ text: String, in scalars: [Unicode.Scalar], within range: ClosedRange<Int>) -> ClosedRange<Int>? {
        let unit = Array(text.unicodeScalars.lazy.filter { !XHTMLDocument.isIgnorable($0) })
        guard !unit.isEmpty, range.upperBound < scalars.count else { return nil }
        return find(unit, in: scalars, from: range.lowerBound, reach: Self.shortReach, until: range.upperBound + 1)
    }

    /// The first place at or after `start` (no further than `reach` from it) where `unit` begins
    /// exactly (its first few scalars) and goes on with small gaps.
    static func find(_ unit: [Unicode.Scalar], in text: [Unicode.Scalar], from start: Int, reach: Int, until limit: Int? = nil) -> ClosedRange<Int>? {
        let limit = min(limit ?? text.count, text.count)
        guard start < limit else { return nil }
        let prefix = min(unit.count, 4)
        let end = reach == Int.max ? limit : min(limit, start + reach + 1)
        var candidate = start
        while candidate < end {
            if text[candidate] == unit[0], candidate + prefix <= limit,
               (1..<prefix).allSatisfy({ text[candidate + $0] == unit[$0] }),
               let match = match(unit, in: text, at: candidate, until: limit) {
                return match
            }
            candidate += 1
        }
        return nil
    }

    /// `unit` read in `text` from `start`, stepping over short runs of extra text, or nil when
    /// it strays too far.
    private static func match(_ unit: [Unicode.Scalar], in text: [Unicode.Scalar], at start: Int, until limit: Int) -> ClosedRange<Int>? {
        var index = 0
        var position = start
        var last = start
        var gaps = 0
        var dropped = 0
        let maxGaps = 2 + unit.count / 8
        let maxDropped = unit.count / 12
        while index < unit.count {
            if position < limit, text[position] == unit[index] {
                last = position
                index += 1
                position += 1
                continue
            }
            let length = min(3, unit.count - index)
            let window = min(limit, position + 1 + maxGap)
            if gaps < maxGaps, let resumed = firstOccurrence(of: unit[index..<(index + length)], in: text, from: position + 1, to: window) {
                gaps += 1
                position = resumed
                continue
            }
            guard dropped < maxDropped else { return nil }
            dropped += 1
            index += 1
        }
        return start...last
    }

    private static func firstOccurrence(of needle: ArraySlice<Unicode.Scalar>, in text: [Unicode.Scalar], from start: Int, to end: Int) -> Int? {
        guard let first = needle.first, start < end else { return nil }
        var position = start
        while position + needle.count <= end {
            if text[position] == first, zip(text[position..<(position + needle.count)], needle).allSatisfy({ $0 == $1 }) {
                return position
            }
            position += 1
        }
        return nil
    }
}
