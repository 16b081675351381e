import struct Foundation.Data
import NarrateDomain

/// Reads a Markdown file as text to narrate.
///
/// Headings (`#` … and underlined ones) become chapters, at a depth relative to the highest
/// level used; paragraphs, list items and quotes become blocks. Emphasis markers go, links keep
/// their text, images and HTML tags are dropped, and YAML/TOML front matter is skipped.
/// Fenced code blocks are skipped too: code read aloud is noise in a narrated book.
/// The title is the first level-1 heading, else the file name.
public struct MarkdownParser: DocumentParserContract {
    public let format = DocumentFormat.markdown

    public init() {}

    public func parse(_ data: Data, path: String, options: ParseOptions) throws(BookError) -> Book {
        guard !data.isEmpty else { throw .emptyFile(path: path) }
        let (blocks, headings) = Self.blocks(of: TextFileDecoder.decode(data))
        guard !blocks.isEmpty else { throw .noText(path: path) }
        let topLevel = headings.map(\.level).min() ?? 1
        let chapters = headings.map {
            BookLayout.ChapterStart(title: $0.text, depth: $0.level - topLevel, blockIndex: $0.index)
        }
        let layout = BookLayout.wordPages(blocks: blocks, chapters: chapters, wordsPerPage: options.wordsPerPage)
        let title = headings.first { $0.level == 1 }?.text ?? EPUBParser.fileTitle(path)
        return Book(metadata: BookMetadata(title: title), format: .markdown, chapters: layout.chapters, pages: layout.pages)
    }

    struct Heading {
        var level: Int
        var text: String
        var index: Int
    }

    /// The readable blocks of `text` and the headings among them.
    static func blocks(of text: String) -> (blocks: [String], headings: [Heading]) {
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
            .map { String($0) }
        dropFrontMatter(&lines)
        var blocks: [String] = []
        var headings: [Heading] = []
        var paragraph: [String] = []
        var fence: String?

        func flush() {
            let joined = inlineText(paragraph.joined(separator: " "))
            paragraph = []
            if MarkupText.hasLetterOrDigit(joined) { blocks.append(joined) }
        }
        func addHeading(_ level: Int, _ raw: String) {
            flush()
            let text = inlineText(raw)
            guard MarkupText.hasLetterOrDigit(text) else { return }
            headings.append(Heading(level: level, text: text, index: blocks.count))
            blocks.append(text)
        }

        var index = 0
        while index < lines.count {
            let line = lines[index]
            let trimmed = line.trimmingASCIISpaces()
            index += 1
            if let open = fence {
                if trimmed.hasPrefix(open) { fence = nil }
                continue
            }
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                flush()
                fence = String(trimmed.prefix(3))
                continue
            }
            if trimmed.isEmpty {
                flush()
                continue
            }
            if let (level, title) = atxHeading(trimmed) {
                addHeading(level, title)
                continue
            }
            // Setext heading: a paragraph line underlined with === or ---.
            if index < lines.count, paragraph.isEmpty, !isListItem(trimmed) {
                let underline = lines[index].trimmingASCIISpaces()
                if !underline.isEmpty, underline.allSatisfy({ $0 == "=" }) || (underline.count >= 2 && underline.allSatisfy({ $0 == "-" })) {
                    addHeading(underline.first == "=" ? 1 : 2, trimmed)
                    index += 1
                    continue
                }
            }
            if isRule(trimmed) || isReferenceDefinition(trimmed) || isTableSeparator(trimmed) {
                flush()
                continue
            }
            var content = trimmed
            while content.hasPrefix(">") { content = String(content.dropFirst()).trimmingASCIISpaces() }
            if let item = listItemContent(content) {
                flush()
                paragraph.append(item)
                continue
            }
            if content.hasPrefix("|") { content = content.replacingPipes() }
            paragraph.append(content)
        }
        flush()
        return (blocks, headings)
    }

    private static func dropFrontMatter(_ lines: inout [String]) {
        guard let first = lines.first?.trimmingASCIISpaces(), first == "---" || first == "+++" else { return }
        if let end = lines.dropFirst().firstIndex(where: { $0.trimmingASCIISpaces() == first }) {
            lines.removeSubrange(0...end)
        }
    }

    private static func atxHeading(_ line: String) -> (Int, String)? {
        let level = line.prefix { $0 == "#" }.count
        guard (1...6).contains(level) else { return nil }
        let rest = line.dropFirst(level)
        guard rest.isEmpty || rest.first == " " || rest.first == "\t" else { return nil }
        var title = String(rest).trimmingASCIISpaces()
        // Closing hashes: "## Title ##".
        while title.hasSuffix("#") { title.removeLast() }
        return (level, title.trimmingASCIISpaces())
    }

    private static func isRule(_ line: String) -> Bool {
        let compact = line.filter { $0 != " " }
        guard compact.count >= 3, let first = compact.first, "-*_".contains(first) else { return false }
        return compact.allSatisfy { $0 == first }
    }

    private static func isReferenceDefinition(_ line: String) -> Bool {
        line.hasPrefix("[") && line.contains("]:")
    }

    private static func isTableSeparator(_ line: String) -> Bool {
        line.contains("-") && line.allSatisfy { "|-: ".contains($0) }
    }

    private static func isListItem(_ line: String) -> Bool { listItemContent(line) != nil }

    private static func listItemContent(_ line: String) -> String? {
        if let first = line.first, "-*+".contains(first), line.dropFirst().first == " " {
            return String(line.dropFirst(2))
        }
        let digits = line.prefix { $0.isASCII && $0.isNumber }
        if !digits.isEmpty, digits.count <= 9 {
            let rest = line.dropFirst(digits.count)
            if let marker = rest.first, marker == "." || marker == ")", rest.dropFirst().first == " " {
                return String(rest.dropFirst(2))
            }
        }
        return nil
    }

    /// Inline Markdown to plain text: images out, links to their text, markers and tags out.
    static func inlineText(_ text: String) -> String {
        let characters = Array(text)
        var output = ""
        var index = 0
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "\\" where index + 1 < characters.count:
                output.append(characters[index + 1])
                index += 2
            case "!" where index + 1 < characters.count && characters[index + 1] == "[":
                // Image: drop `![alt](url)` entirely.
                if let close = matching(characters, from: index + 1, open: "[", close: "]") {
                    index = skipTarget(characters, after: close)
                } else {
                    index += 1
                }
            case "[":
                if let close = matching(characters, from: index, open: "[", close: "]") {
                    output += inlineText(String(characters[(index + 1)..<close]))
                    index = skipTarget(characters, after: close)
                } else {
                    output.append(character)
                    index += 1
                }
            case "<":
                // Autolinks keep their address; HTML tags are dropped.
                if let close = characters[index...].firstIndex(of: ">") {
                    let inner = String(characters[(index + 1)..<close])
                    if inner.contains("://") || inner.contains("@") { output += inner }
                    index = close + 1
                } else {
                    output.append(character)
                    index += 1
                }
            case "*", "`", "~":
                index += 1
            case "_":
                // Emphasis only at a word edge: snake_case keeps its underscores.
                let before = index > 0 ? characters[index - 1] : " "
                let after = index + 1 < characters.count ? characters[index + 1] : " "
                if before.isLetter || before.isNumber, after.isLetter || after.isNumber { output.append(character) }
                index += 1
            default:
                output.append(character)
                index += 1
            }
        }
        return MarkupText.collapseWhitespace(HTMLScanner.decodeEntities(output))
    }

    private static func matching(_ characters: [Character], from start: Int, open: Character, close: Character) -> Int? {
        var depth = 0
        var index = start
        while index < characters.count {
            if characters[index] == open { depth += 1 }
            if characters[index] == close {
                depth -= 1
                if depth == 0 { return index }
            }
            index += 1
        }
        return nil
    }

    /// The index after a link target `(url)` or reference `[ref]` that follows `close`, if any.
    private static func skipTarget(_ characters: [Character], after close: Int) -> Int {
        let next = close + 1
        guard next < characters.count else { return next }
        if characters[next] == "(", let end = matching(characters, from: next, open: "(", close: ")") { return end + 1 }
        if characters[next] == "[", let end = matching(characters, from: next, open: "[", close: "]") { return end + 1 }
        return next
    }
}

extension String {
    /// A table row's cells separated by spaces.
    fileprivate func replacingPipes() -> String {
        split(separator: "|").map { String($0).trimmingASCIISpaces() }.filter { !$0.isEmpty }.joined(separator: ", ")
    }
}
