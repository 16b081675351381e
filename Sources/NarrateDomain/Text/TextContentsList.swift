/// Finds the printed contents list of a plain-text book — a heading such as "CONTENTS" or
/// "Table des matières" followed by short entry lines ("I. Deux Parents   7") — so the chapter
/// titles are not read twice.
public enum TextContentsList {
    /// A contents list found in a text.
    public struct Found: Sendable, Hashable {
        /// The heading, as written ("CONTENTS.").
        public var title: String
        /// The text without the list.
        public var remainder: String
        /// Words left out.
        public var words: Int
    }

    /// Headings of a printed contents list, lower-cased, letters and single spaces only.
    public static let headings: Set<String> = [
        "contents", "table of contents", "list of contents", "chapters", "list of chapters", "index",
        "list of illustrations", "illustrations", "inhalt", "inhaltsverzeichnis", "table des matières",
        "table des matieres", "table", "sommaire", "inhoud", "inhoudsopgave", "indice", "índice", "índex",
        "sisällys", "sisällysluettelo", "innehåll", "indhold", "innhold", "spis treści", "obsah", "tartalom",
        "содержание", "оглавление",
    ]

    /// The heading key of a line: its letters and spaces, lower-cased ("CONTENTS." → "contents").
    public static func headingKey(_ line: some StringProtocol) -> String {
        let letters = String(line.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || $0 == " " }.map(Character.init))
        return letters.split(separator: " ").joined(separator: " ")
    }

    /// The first contents list in the first part of `text`, if there is one.
    public static func find(in text: String) -> Found? {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
        let searchLimit = min(lines.count, max(600, lines.count / 7))
        for headingIndex in 0..<searchLimit {
            let line = lines[headingIndex]
            guard line.count <= 40, headings.contains(headingKey(line)) else { continue }
            guard let end = listEnd(lines, after: headingIndex) else { continue }
            let removed = lines[headingIndex...end]
            let remainder = (lines[..<headingIndex] + lines[(end + 1)...]).joined(separator: "\n")
            return Found(
                title: String(line.drop(while: \.isWhitespace)).trimmingTrailingSpaces,
                remainder: remainder,
                words: removed.reduce(0) { $0 + Paginator.wordCount($1) }
            )
        }
        return nil
    }

    /// The last line of the entries after the heading at `headingIndex`, when they look like a
    /// contents list: three or more short lines, most of them numbered, paged or chapter-like,
    /// ended by two blank lines.
    private static func listEnd(_ lines: [Substring], after headingIndex: Int) -> Int? {
        var entries: [Substring] = []
        var lastEntry = headingIndex
        var blanks = 0
        var index = headingIndex + 1
        while index < lines.count, index - headingIndex <= 1500 {
            let line = lines[index]
            if line.allSatisfy(\.isWhitespace) {
                blanks += 1
                if blanks >= 2, !entries.isEmpty { break }
            } else {
                guard line.trimmingCharacters.count <= 80 else { return nil }
                entries.append(line)
                lastEntry = index
                blanks = 0
            }
            index += 1
        }
        guard entries.count >= 3 else { return nil }
        let likely = entries.count { isEntryLike($0) }
        return likely * 2 >= entries.count ? lastEntry : nil
    }

    /// "I. Deux Parents", "Chapter 3", "12. The End", "The Storm ........ 45".
    private static func isEntryLike(_ line: Substring) -> Bool {
        let trimmed = line.trimmingCharacters
        if let last = trimmed.last, last.isNumber { return true }
        let first = trimmed.prefix { !$0.isWhitespace }.lowercased()
        let bare = first.filter { $0 != "." && $0 != ":" && $0 != ")" }
        if !bare.isEmpty, bare.allSatisfy({ $0.isNumber }) { return true }
        if !bare.isEmpty, bare.allSatisfy({ "ivxlcdm".contains($0) }) { return true }
        return ["chapter", "chap", "book", "part", "letter", "canto", "act", "scene", "section", "chapitre", "kapitel", "hoofdstuk", "capítulo", "capitolo"]
            .contains(bare)
    }
}

private extension StringProtocol {
    var trimmingCharacters: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }

    var trimmingTrailingSpaces: String {
        String(reversed().drop(while: \.isWhitespace).reversed())
    }
}
