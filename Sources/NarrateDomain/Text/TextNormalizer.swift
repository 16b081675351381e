// Foundation only for Unicode NFC (`precomposedStringWithCanonicalMapping`); the standard library has no public API for it.
import Foundation

/// Cleans text before it is paginated, cached or spoken, so that the same words always give the same string.
public enum TextNormalizer {
    /// Normalizes `text`.
    ///
    /// NFC; CRLF/CR → LF; control characters removed (except `\n` and `\f`; tabs count as spaces);
    /// no-break and other Unicode spaces → space; invisible characters (``WhitespaceRule``: soft
    /// hyphen, zero-width space, word joiner, byte order mark) removed; whitespace inside
    /// a paragraph folded to one space (single newlines are soft line wraps); paragraphs (separated by one or
    /// more blank lines, by `\f`, or by U+2029) joined by exactly `"\n\n"`; leading/trailing whitespace trimmed.
    public static func normalize(_ text: String) -> String {
        var joined: [UInt8] = []
        joined.reserveCapacity(text.utf8.count)
        scanParagraphs(text) { paragraph in
            if !joined.isEmpty {
                joined.append(contentsOf: [0x0A, 0x0A])
            }
            joined.append(contentsOf: paragraph)
        }
        return String(decoding: joined, as: UTF8.self)
    }

    /// The normalized paragraphs of `text` (same rules as ``normalize(_:)``), in order, none empty.
    public static func paragraphs(_ text: String) -> [String] {
        var paragraphs: [String] = []
        scanParagraphs(text) { paragraph in
            paragraphs.append(String(decoding: paragraph, as: UTF8.self))
        }
        return paragraphs
    }

    /// One pass over the NFC scalars; hands each finished paragraph's UTF-8 to `emit`.
    /// Works on bytes rather than `String` so a whole book normalizes in linear time.
    private static func scanParagraphs(_ text: String, emit: ([UInt8]) -> Void) {
        let isASCII = text.utf8.allSatisfy { $0 < 0x80 }
        let composed = isASCII ? text : text.precomposedStringWithCanonicalMapping

        var paragraph: [UInt8] = []
        var pendingSpace = false
        var newlines = 0
        var hardBreak = false
        var afterCarriageReturn = false

        for scalar in composed.unicodeScalars {
            let kind = classify(scalar)
            if kind == .lineFeed, afterCarriageReturn {
                afterCarriageReturn = false
                continue
            }
            afterCarriageReturn = kind == .carriageReturn
            switch kind {
            case .carriageReturn, .lineFeed:
                newlines += 1
            case .paragraphBreak:
                hardBreak = true
            case .space:
                pendingSpace = true
            case .removed:
                break
            case .visible:
                if !paragraph.isEmpty {
                    if hardBreak || newlines >= 2 {
                        emit(paragraph)
                        paragraph.removeAll(keepingCapacity: true)
                    } else if pendingSpace || newlines == 1 {
                        paragraph.append(0x20)
                    }
                }
                pendingSpace = false
                newlines = 0
                hardBreak = false
                if scalar.isASCII {
                    paragraph.append(UInt8(truncatingIfNeeded: scalar.value))
                } else {
                    paragraph.append(contentsOf: scalar.utf8)
                }
            }
        }
        if !paragraph.isEmpty {
            emit(paragraph)
        }
    }

    private enum ScalarKind {
        case carriageReturn, lineFeed, paragraphBreak, space, removed, visible
    }

    private static func classify(_ scalar: Unicode.Scalar) -> ScalarKind {
        switch scalar.value {
        case 0x0D: return .carriageReturn
        default:
            switch WhitespaceRule.kind(of: scalar) {
            case .lineBreak: return .lineFeed
            case .paragraphBreak: return .paragraphBreak
            case .space: return .space
            case .invisible: return .removed
            case .visible: return .visible
            }
        }
    }
}
