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
            case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029:
                escaped += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default:
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
