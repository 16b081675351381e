import NarrateDomain

/// Text helpers every markup reader shares: element names, white space folding (by
/// ``WhitespaceRule``), and whether a block has anything to say.
enum MarkupText {
    /// An element's local name, lower-cased (`xhtml:P` → `p`).
    static func normalizedName(_ raw: String) -> String {
        let local = XMLTree.localName(raw)
        return local.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) ? local.lowercased() : local
    }

    /// 1…6 for `h1`…`h6`.
    static func headingLevel(_ name: String) -> Int? {
        let utf8 = Array(name.utf8)
        guard utf8.count == 2, utf8[0] == UInt8(ascii: "h"), utf8[1] >= UInt8(ascii: "1"), utf8[1] <= UInt8(ascii: "6") else {
            return nil
        }
        return Int(utf8[1] - UInt8(ascii: "0"))
    }

    /// The first words of `text`, for a title.
    static func opening(of text: String) -> String {
        let words = collapseWhitespace(text).split(separator: " ", maxSplits: 8)
        return words.prefix(8).joined(separator: " ") + (words.count > 8 ? "…" : "")
    }

    /// Space, tab, CR, LF or form feed.
    static func isASCIISpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 || byte == 0x0C
    }

    /// Folds every run of whitespace (Unicode, including no-break spaces) into one space and trims.
    ///
    /// Works on UTF-8 bytes: this runs over every character of a book, and Unicode property
    /// look-ups per scalar would dominate the parse time.
    static func collapseWhitespace(_ text: String) -> String {
        let input = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(input.count)
        var pendingSpace = false
        var index = 0
        while index < input.count {
            let byte = input[index]
            if byte < 0x80 {
                if isASCIISpace(byte) || byte == 0x0B {
                    pendingSpace = !output.isEmpty
                } else {
                    if pendingSpace { output.append(0x20); pendingSpace = false }
                    output.append(byte)
                }
                index += 1
                continue
            }
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
            let end = min(index + length, input.count)
            switch unicodeSpaceKind(input[index..<end]) {
            case .space:
                pendingSpace = !output.isEmpty
            case .invisible:
                break
            case .none:
                if pendingSpace { output.append(0x20); pendingSpace = false }
                output.append(contentsOf: input[index..<end])
            }
            index = end
        }
        return String(decoding: output, as: UTF8.self)
    }

    private enum SpaceKind { case space, invisible, none }

    /// Classifies one UTF-8 encoded scalar by ``WhitespaceRule`` (the rule text normalization
    /// uses too): white space of any kind, invisible, or anything else.
    private static func unicodeSpaceKind(_ bytes: ArraySlice<UInt8>) -> SpaceKind {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        guard case let .scalarValue(scalar) = decoder.decode(&iterator) else { return .none }
        switch WhitespaceRule.kind(of: scalar) {
        case .lineBreak, .paragraphBreak, .space: return .space
        case .invisible: return .invisible
        case .visible: return .none
        }
    }

    /// Whether `text` has at least one letter or digit (ASCII checked first, cheaply).
    static func hasLetterOrDigit(_ text: String) -> Bool {
        var sawNonASCII = false
        for byte in text.utf8 {
            if (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A) { return true }
            if byte >= 0x80 { sawNonASCII = true }
        }
        guard sawNonASCII else { return false }
        return text.unicodeScalars.contains { $0.properties.isAlphabetic || $0.properties.numericType != nil }
    }
}
