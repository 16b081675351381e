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

    /// The "Title:" and "Author:" values of a Project Gutenberg header, when present.
    ///
    /// Only the header (the lines before the start marker) is searched. Indented continuation lines are
    /// kept: a title's as a subtitle ("Entre Nous: Lectures Françaises…"), further authors after a comma.
    public static func metadata(in text: String) -> (title: String?, author: String?) {
        var title: String?
        var author: String?
        var current: Field?
        for line in lines(of: text[...]) {
            if marker(of: line.text) == .headerEnd { return (title, author) }
            let content = line.text
            if let field = Field.allCases.first(where: { content.hasPrefix($0.rawValue) }) {
                let value = content.dropFirst(field.rawValue.count).trimmingSpaces
                current = value.isEmpty ? nil : field
                if field == .title, title == nil, !value.isEmpty { title = value }
                if field == .author, author == nil, !value.isEmpty { author = value }
            } else if let field = current, content.first?.isWhitespace == true, !content.trimmingSpaces.isEmpty {
                switch field {
                case .title: title = (title ?? "") + ": " + content.trimmingSpaces
                case .author: author = (author ?? "") + ", " + content.trimmingSpaces
                }
            } else {
                current = nil
            }
        }
        return (nil, nil)
    }

    private enum Field: String, CaseIterable {
        case title = "Title:"
        case author = "Author:"
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

private extension StringProtocol {
    var trimmingSpaces: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
