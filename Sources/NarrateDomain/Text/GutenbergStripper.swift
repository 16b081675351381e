/// Removes the Project Gutenberg header, footer and licence around a plain-text e-book, leaving the book.
public enum GutenbergStripper {
    /// The text between a Project Gutenberg header and footer, trimmed of surrounding blank lines.
    ///
    /// Headers: modern (`*** START OF THE PROJECT GUTENBERG EBOOK … ***`, `*** START OF THIS PROJECT GUTENBERG …`)
    /// and 1990s (`***START**THE SMALL PRINT!…` … `*END*THE SMALL PRINT! …`); a "Produced by …" credit paragraph
    /// right after the header goes too. Footers: the first of `*** END OF …`, `End of The Project Gutenberg
    /// Etext …`, `End of Project Gutenberg's …`, `*** START: FULL LICENSE ***`. Markers are matched ignoring case,
    /// spacing and asterisks. Text without such markers comes back unchanged. Works on text with CRLF or LF.
    public static func strip(_ text: String) -> String {
        var bodyStart: String.Index?
        var bodyEnd: String.Index?
        for line in lines(of: text[...]) {
            switch marker(of: line.text) {
            case .headerEnd:
                bodyStart = line.next
            case .footerStart:
                bodyEnd = line.start
            case nil:
                continue
            }
            if bodyEnd != nil { break }
        }
        guard bodyStart != nil || bodyEnd != nil else { return text }

        var body = text[(bodyStart ?? text.startIndex)..<(bodyEnd ?? text.endIndex)]
        body = body.drop(while: { $0.isWhitespace })
        if let first = lines(of: body).first(where: { !$0.text.isEmpty }), isCreditLine(first.text) {
            // The credit runs to the first blank line.
            let blank = lines(of: body[first.start...]).first(where: { $0.text.allSatisfy(\.isWhitespace) })
            body = body[(blank?.start ?? body.endIndex)...]
        }
        while let last = body.last, last.isWhitespace { body = body.dropLast() }
        return String(body.drop(while: { $0.isWhitespace }))
    }

    /// The fields of a Project Gutenberg header.
    public struct Header: Sendable, Hashable {
        public var title: String?
        public var author: String?
        /// The "Language:" value as written ("Dutch", "English; Latin").
        public var language: String?
        /// The "Release date:" value, without the "[EBook #…]" number.
        public var releaseDate: String?
        /// The "Credits:" value, else the "Produced by …" paragraph after the header.
        public var credits: String?

        public init(title: String? = nil, author: String? = nil, language: String? = nil, releaseDate: String? = nil, credits: String? = nil) {
            self.title = title
            self.author = author
            self.language = language
            self.releaseDate = releaseDate
            self.credits = credits
        }
    }

    /// The header fields of a Project Gutenberg text, when it has a header.
    ///
    /// Only the header (the lines before the start marker) is searched, and the credit paragraph
    /// right after it. Indented continuation lines are kept: a title's as a subtitle ("Entre
    /// Nous: Lectures Françaises…"), further authors after a comma, credits and dates joined.
    public static func header(in text: String) -> Header {
        var header = Header()
        var current: Field?
        var sawStart = false
        let allLines = lines(of: text[...])
        var lineIndex = 0
        while lineIndex < allLines.count {
            let line = allLines[lineIndex]
            lineIndex += 1
            if marker(of: line.text) == .headerEnd {
                sawStart = true
                break
            }
            let content = line.text
            if let (field, valueStart) = Field.match(content) {
                let value = String(content[valueStart...]).trimmingSpaces
                current = value.isEmpty ? nil : field
                if !value.isEmpty, header[field] == nil { header[field] = field.clean(value) }
            } else if let field = current, content.first?.isWhitespace == true, !content.trimmingSpaces.isEmpty {
                let more = content.trimmingSpaces
                switch field {
                case .title: header.title = (header.title ?? "") + ": " + more
                case .author: header.author = (header.author ?? "") + ", " + more
                case .credits: header.credits = (header.credits ?? "") + " " + more
                case .language, .releaseDate: break
                }
            } else {
                current = nil
            }
        }
        guard sawStart else { return Header() }
        if header.credits == nil {
            // The 2000s layout: a "Produced by …" paragraph right after the start marker.
            let rest = allLines[lineIndex...].drop(while: { $0.text.allSatisfy(\.isWhitespace) })
            if let first = rest.first, isCreditLine(first.text) {
                let paragraph = rest.prefix(while: { !$0.text.allSatisfy(\.isWhitespace) }).map { $0.text.trimmingSpaces }
                header.credits = paragraph.joined(separator: " ")
            }
        }
        return header
    }

    /// Whether `line` (one line, or a paragraph of a converted book) is a Gutenberg marker that
    /// ends the header ("*** START OF THE PROJECT GUTENBERG EBOOK …").
    public static func isHeaderEnd(_ line: String) -> Bool {
        marker(of: line[...]) == .headerEnd
    }

    /// Whether `line` is a Gutenberg marker that starts the footer ("*** END OF THE PROJECT
    /// GUTENBERG EBOOK …", "End of Project Gutenberg's …").
    public static func isFooterStart(_ line: String) -> Bool {
        marker(of: line[...]) == .footerStart
    }

    fileprivate enum Field: CaseIterable {
        case title, author, language, releaseDate, credits

        var labels: [String] {
            switch self {
            case .title: ["title"]
            case .author: ["author"]
            case .language: ["language"]
            case .releaseDate: ["release date", "posting date"]
            case .credits: ["credits", "produced by", "prepared by"]
            }
        }

        /// The field a header line starts with ("Release Date: …", "Credits:"), and where its value starts.
        static func match(_ line: Substring) -> (Field, String.Index)? {
            guard let colon = line.firstIndex(of: ":"), line.distance(from: line.startIndex, to: colon) <= 16 else { return nil }
            let label = line[..<colon].lowercased()
            guard let field = allCases.first(where: { $0.labels.contains(label) }) else { return nil }
            return (field, line.index(after: colon))
        }

        func clean(_ value: String) -> String {
            guard self == .releaseDate, let bracket = value.firstIndex(of: "[") else { return value }
            return value[..<bracket].trimmingSpaces
        }
    }

    private enum Marker {
        /// The last line of the header: the book starts on the next line.
        case headerEnd
        /// The first line of the footer: the book ended on the line before.
        case footerStart
    }

    private static func marker(of line: Substring) -> Marker? {
        guard let first = line.first(where: { $0 != " " && $0 != "\t" }),
              first == "*" || first == "E" || first == "e" else { return nil }
        let squashed = squash(line)
        let starred = first == "*"
        if starred {
            if squashed.hasPrefix("STARTOFTHEPROJECTGUTENBERG") || squashed.hasPrefix("STARTOFTHISPROJECTGUTENBERG")
                || squashed.hasPrefix("STARTOFPROJECTGUTENBERG") || squashed.hasPrefix("ENDTHESMALLPRINT") {
                return .headerEnd
            }
            if squashed.hasPrefix("STARTFULLLICENSE") { return .footerStart }
        }
        if squashed.hasPrefix("ENDOFTHEPROJECTGUTENBERG") || squashed.hasPrefix("ENDOFTHISPROJECTGUTENBERG")
            || squashed.hasPrefix("ENDOFPROJECTGUTENBERG") {
            return .footerStart
        }
        return nil
    }

    /// The first ASCII letters and digits of `line`, upper-cased: "*** Start of  this" → "STARTOFTHIS…".
    private static func squash(_ line: Substring) -> String {
        var bytes: [UInt8] = []
        for byte in line.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"): bytes.append(byte - 0x20)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): bytes.append(byte)
            default: break
            }
            if bytes.count >= 32 { break }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func isCreditLine(_ line: Substring) -> Bool {
        let lowered = line.prefix(24).lowercased()
        return ["produced by", "e-text prepared by", "etext prepared by", "transcribed by", "transcribed from"]
            .contains(where: lowered.hasPrefix)
    }

    /// A line without its terminator (LF, CRLF or CR), where it starts, and where the next line starts.
    private struct Line {
        var text: Substring
        var start: String.Index
        var next: String.Index
    }

    /// The lines of `text`, found on the UTF-8 view so a whole book splits in linear time.
    private static func lines(of text: Substring) -> [Line] {
        let utf8 = text.utf8
        var lines: [Line] = []
        var start = utf8.startIndex
        while start < utf8.endIndex {
            var end = start
            while end < utf8.endIndex, utf8[end] != 0x0A, utf8[end] != 0x0D { end = utf8.index(after: end) }
            var next = end
            if next < utf8.endIndex {
                let wasCarriageReturn = utf8[next] == 0x0D
                next = utf8.index(after: next)
                if wasCarriageReturn, next < utf8.endIndex, utf8[next] == 0x0A { next = utf8.index(after: next) }
            }
            lines.append(Line(text: text[start..<end], start: start, next: next))
            start = next
        }
        return lines
    }
}

fileprivate extension GutenbergStripper.Header {
    subscript(field: GutenbergStripper.Field) -> String? {
        get {
            switch field {
            case .title: title
            case .author: author
            case .language: language
            case .releaseDate: releaseDate
            case .credits: credits
            }
        }
        set {
            switch field {
            case .title: title = newValue
            case .author: author = newValue
            case .language: language = newValue
            case .releaseDate: releaseDate = newValue
            case .credits: credits = newValue
            }
        }
    }
}

private extension StringProtocol {
    var trimmingSpaces: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
