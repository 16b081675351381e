/// Separates a page's footnotes (small text at its foot, each starting with a mark the body points to) from its
/// body, and drops the marks in the body that point to them (small raised numbers, or small numbers glued to a word).
public enum FootnoteSplitter {
    /// The body lines of one page without note marks, and the notes printed at its foot: small lines at the foot,
    /// from the first that starts with a mark the body points to.
    public static func split(_ lines: [LayoutLine], page: LayoutPage, bodySize: Double) -> (body: [LayoutLine], notes: [LayoutNote]) {
        let sorted = lines.sorted { $0.box.y < $1.box.y }
        var start = sorted.count
        while start > 0, sorted[start - 1].fontSize <= bodySize * 0.9, sorted[start - 1].box.y > page.height * 0.4 {
            start -= 1
        }
        let pointedTo = Set(sorted[..<start].flatMap { noteMarks(in: $0) })
        // The footnote area begins at its first line marked as the body points; small text above it (a caption) is body.
        while start < sorted.count, note(in: sorted[start], pointedTo: pointedTo) == nil { start += 1 }
        var notes: [LayoutNote] = []
        for line in sorted[start...] {
            if let (mark, text) = note(in: line, pointedTo: pointedTo) {
                notes.append(LayoutNote(page: page.number, marker: mark, text: text))
            } else if !notes.isEmpty {
                notes[notes.count - 1].text = LineJoiner.join(notes[notes.count - 1].text, line.text, vocabulary: LayoutVocabulary())
            }
        }
        let body = sorted[..<start].map(droppingNoteMarks).filter { !$0.words.isEmpty }
        return (body, notes)
    }

    /// The line without its note marks: small digits (or `*`, `†`, `‡`) raised above the line or glued to the word
    /// before, and superscript digits at the end of a word.
    public static func droppingNoteMarks(_ line: LayoutLine) -> LayoutLine {
        let marks = Set(markIndices(line))
        let kept = line.words.enumerated().compactMap { index, word -> LayoutWord? in
            guard !marks.contains(index) else { return nil }
            var cleaned = word
            cleaned.text = String(word.text.unicodeScalars.filter { !superscriptDigits.contains($0) }.map(Character.init))
            return cleaned.text.isEmpty ? nil : cleaned
        }
        return LayoutLine(words: kept)
    }

    /// The note marks in `line`, as printed.
    public static func noteMarks(in line: LayoutLine) -> [String] {
        markIndices(line).map { line.words[$0].text }
    }

    /// The words of `line` that are note marks.
    static func markIndices(_ line: LayoutLine) -> [Int] {
        let size = line.fontSize
        let baseline = line.words.filter { $0.fontSize == size }.map(\.box.maxY).max() ?? line.box.maxY
        return line.words.indices.filter { index in
            let word = line.words[index]
            let raised = word.box.maxY < baseline - size * 0.15
            let glued = index > 0 && LayoutLine.touches(line.words[index - 1], word)
            return isMark(word.text) && word.fontSize <= size * 0.85 && (raised || glued)
        }
    }

    static let superscriptDigits: Set<Unicode.Scalar> = ["\u{00B9}", "\u{00B2}", "\u{00B3}", "\u{2070}", "\u{2074}",
                                                         "\u{2075}", "\u{2076}", "\u{2077}", "\u{2078}", "\u{2079}"]

    /// The mark and the text of the note `line` starts, if it starts with a mark the body points to: a word of its
    /// own, or digits glued to the note's first word (`1Quokkas`, as LibreOffice prints a note).
    static func note(in line: LayoutLine, pointedTo: Set<String>) -> (mark: String, text: String)? {
        guard let first = line.words.first else { return nil }
        if line.words.count > 1, isMark(first.text), pointedTo.contains(first.text) {
            return (first.text, LayoutLine(words: Array(line.words.dropFirst())).text)
        }
        let digits = String(first.text.prefix { $0.isASCII && $0.isNumber })
        guard !digits.isEmpty, digits.count <= 3, pointedTo.contains(digits), first.text.dropFirst(digits.count).first?.isLetter == true
        else { return nil }
        return (digits, String(line.text.dropFirst(digits.count)))
    }

    static func isMark(_ text: String) -> Bool {
        guard !text.isEmpty, text.count <= 3 else { return false }
        return text.allSatisfy { $0.isASCII && $0.isNumber } || text.allSatisfy { "*†‡§".contains($0) }
    }
}
