/// Character classes shared by the text functions (sentence splitting, chunking, pagination).
extension Unicode.Scalar {
    /// Whitespace of any kind, line breaks and form feed included.
    var isSpaceLike: Bool {
        switch value {
        case 0x20, 0x09...0x0D: true
        case 0x21...0x7F: false
        default: properties.isWhitespace
        }
    }

    var isNewline: Bool {
        value == 0x0A || value == 0x0D || value == 0x85 || value == 0x2028
    }

    var isTerminator: Bool {
        switch self {
        case ".", "!", "?", "…", "‽", "。", "！", "？", "⁇", "⁈", "⁉": true
        default: false
        }
    }

    /// Closing quotes and brackets that may follow a sentence's final punctuation.
    /// “ and « close quotes in German („Ja.“, »Ja.«).
    var isCloser: Bool {
        switch self {
        case "\"", "'", "”", "’", "“", "»", "«", "›", "‹", ")", "]", "}", "_": true
        default: false
        }
    }
}

extension Unicode.Scalar {
    /// A mark that belongs to the scalar before it, so a hard cut must not fall just before it.
    var isCombining: Bool {
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: value == 0x200D || (0xFE00...0xFE0F).contains(value)
        }
    }
}

extension Unicode.Scalar {
    /// A letter or digit: something a word is made of.
    var isWordScalar: Bool {
        properties.isAlphabetic || properties.numericType != nil
    }
}
