/// The one rule for what counts as white space, and what is invisible, in text to be spoken:
/// used when book markup is folded into paragraphs and when text is normalized, so both give
/// the same string for the same words.
public enum WhitespaceRule {
    public enum Kind: Sendable, Equatable {
        /// A line break (LF, CR, NEL, U+2028).
        case lineBreak
        /// A paragraph break (form feed, U+2029).
        case paragraphBreak
        /// Any other Unicode white space (tab, no-break space, the U+2000 spaces…).
        case space
        /// Characters with no sound and no width that are dropped: soft hyphen, zero-width
        /// space, word joiner, byte order mark, and control characters. (Zero-width joiners
        /// and non-joiners stay: they shape Persian and Indic words.)
        case invisible
        case visible
    }

    public static func kind(of scalar: Unicode.Scalar) -> Kind {
        switch scalar.value {
        case 0x0A, 0x0D, 0x85, 0x2028: return .lineBreak
        case 0x0C, 0x2029: return .paragraphBreak
        case 0x20, 0x09, 0x0B, 0xA0: return .space
        case 0x21...0x7E: return .visible
        case 0x00...0x1F, 0x7F...0x9F, 0xAD, 0x200B, 0x2060, 0xFEFF: return .invisible
        // Unicode's White_Space property, listed (it is fixed), so no property look-up runs
        // for every letter of a book.
        case 0x1680, 0x2000...0x200A, 0x202F, 0x205F, 0x3000: return .space
        default: return .visible
        }
    }
}
