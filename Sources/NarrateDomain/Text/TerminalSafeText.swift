extension String {
    /// This text with every control character written out as a visible escape (`\u{1B}`,
    /// `\n`), so a message that quotes input (a book's title, a file's bytes) cannot move the
    /// cursor, ring the bell or break its single line on a terminal.
    public var escapingControlCharacters: String {
        var escaped = ""
        escaped.unicodeScalars.reserveCapacity(unicodeScalars.count)
        for scalar in unicodeScalars {
            switch scalar.value {
            case 0x0A: escaped += "\\n"
            case 0x0D: escaped += "\\r"
            case 0x09: escaped += "\\t"
            case _ where scalar.isTerminalControl:
                escaped += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default:
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// Whether any character would move the cursor, ring the bell or break a line on a terminal.
    public var containsControlCharacters: Bool {
        unicodeScalars.contains { $0.isTerminalControl }
    }

    /// `escapingControlCharacters`, cut to `limit` characters with an ellipsis: how a message or
    /// log line quotes input of any size.
    public func escapedExcerpt(limit: Int) -> String {
        let escaped = escapingControlCharacters
        return escaped.count > limit ? String(escaped.prefix(limit)) + "\u{2026}" : escaped
    }
}

extension Unicode.Scalar {
    /// C0 and C1 controls, DEL, and the line and paragraph separators.
    public var isTerminalControl: Bool {
        switch value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: true
        default: false
        }
    }
}
