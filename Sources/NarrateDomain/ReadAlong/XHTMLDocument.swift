/// A well-formed XHTML document cut into tokens (tags, text, the rest), with the text a reader
/// sees as one stream of scalars, each pointing back at its bytes.
///
/// It is made to rewrite the document by inserting markup between tokens or inside text, never
/// by re-serializing it: every byte that is not inserted stays as it was. Whitespace and
/// invisible format characters are left out of the stream, so text can be found in it however
/// the lines were broken; text inside `head`, `script`, `style` and the like is left out too.
public struct XHTMLDocument: Sendable {
    public enum Kind: Sendable, Hashable {
        case text
        case startTag(name: String, selfClosing: Bool)
        case endTag(name: String)
        /// A comment, CDATA section, processing instruction, XML declaration or DOCTYPE.
        case other
    }

    public struct Token: Sendable, Hashable {
        public var kind: Kind
        /// Where it is in the document's bytes.
        public var range: Range<Int>
        /// The start tag of the element it is in (nil at the top level).
        public var parent: Int?
    }

    public let bytes: [UInt8]
    public private(set) var tokens: [Token] = []
    /// For each start tag that is not self-closing, its end tag.
    public private(set) var endTags: [Int: Int] = [:]
    /// Every `id` the document holds.
    public private(set) var ids: Set<String> = []
    /// The visible text, without whitespace: each scalar with its text token and bytes.
    public private(set) var scalars: [Unicode.Scalar] = []
    public private(set) var scalarTokens: [Int] = []
    public private(set) var scalarBytes: [Range<Int>] = []

    /// Elements whose text is not part of what a reader sees (or where no markup may go).
    static let hiddenElements: Set<String> = [
        "head", "title", "script", "style", "template", "noscript", "textarea", "select", "option",
        "svg", "math", "rt", "rp", "iframe", "object", "audio", "video", "canvas", "button",
        // Not read aloud (as the book reader skips them): navigation and asides (notes).
        "nav", "aside",
    ]

    /// Reads `bytes` (UTF-8); nil when its tags do not nest (it is not well-formed).
    public init?(bytes: [UInt8]) {
        self.bytes = bytes
        var stack: [(name: String, token: Int)] = []
        var hiddenDepth = 0
        var position = 0
        let count = bytes.count
        while position < count {
            if bytes[position] != UInt8(ascii: "<") {
                var end = position
                while end < count, bytes[end] != UInt8(ascii: "<") { end += 1 }
                let index = tokens.count
                tokens.append(Token(kind: .text, range: position..<end, parent: stack.last?.token))
                if hiddenDepth == 0 { appendText(of: index) }
                position = end
                continue
            }
            guard let (kind, end) = Self.markup(at: position, in: bytes) else { return nil }
            let index = tokens.count
            tokens.append(Token(kind: kind, range: position..<end, parent: stack.last?.token))
            switch kind {
            case let .startTag(name, selfClosing):
                if let id = Self.attribute("id", inTag: bytes[position..<end]) { ids.insert(id) }
                if !selfClosing {
                    stack.append((name, index))
                    if Self.hiddenElements.contains(name) { hiddenDepth += 1 }
                }
            case let .endTag(name):
                guard let open = stack.popLast(), open.name == name else { return nil }
                endTags[open.token] = index
                tokens[index].parent = stack.last?.token
                if Self.hiddenElements.contains(name) { hiddenDepth -= 1 }
            case .text, .other:
                break
            }
            position = end
        }
        guard stack.isEmpty else { return nil }
    }

    /// The element name of a start or end tag (its local name, lowercased), else nil.
    public func elementName(_ token: Int) -> String? {
        switch tokens[token].kind {
        case let .startTag(name, _), let .endTag(name): name
        case .text, .other: nil
        }
    }

    /// Whether the token is text with something other than whitespace in `bytes`.
    func hasVisibleText(_ token: Int, in range: Range<Int>) -> Bool {
        guard case .text = tokens[token].kind else { return false }
        return bytes[range].contains { !Self.isASCIISpace($0) }
    }

    // MARK: - Text

    private mutating func appendText(of token: Int) {
        let range = tokens[token].range
        var position = range.lowerBound
        while position < range.upperBound {
            let (scalar, next) = Self.decode(at: position, in: bytes, end: range.upperBound)
            if let scalar, !Self.isIgnorable(scalar) {
                scalars.append(scalar)
                scalarTokens.append(token)
                scalarBytes.append(position..<next)
            }
            position = next
        }
    }

    /// Whitespace and invisible characters, which text is matched without.
    public static func isIgnorable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x21...0x7E: false
        case 0x00...0x20, 0x7F...0xA0, 0xAD, 0x200B...0x200F, 0x2028...0x202F, 0x2060...0x2064, 0xFEFF: true
        default: scalar.properties.isWhitespace || scalar.properties.generalCategory == .nonspacingMark
        }
    }

    static func isASCIISpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The scalar at `position` (a character or an entity reference) and where the next starts;
    /// nil for an entity this reader does not know (it matches nothing).
    static func decode(at position: Int, in bytes: [UInt8], end: Int) -> (Unicode.Scalar?, Int) {
        let byte = bytes[position]
        if byte == UInt8(ascii: "&") {
            var close = position + 1
            while close < end, close - position < 12, bytes[close] != UInt8(ascii: ";") { close += 1 }
            if close < end, bytes[close] == UInt8(ascii: ";") {
                let name = String(decoding: bytes[(position + 1)..<close], as: UTF8.self)
                return (entity(name), close + 1)
            }
            return ("&", position + 1)
        }
        let width = byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
        let next = min(position + width, end)
        var iterator = bytes[position..<next].makeIterator()
        var decoder = UTF8()
        if case let .scalarValue(scalar) = decoder.decode(&iterator) { return (scalar, next) }
        return (nil, position + 1)
    }

    private static func entity(_ name: String) -> Unicode.Scalar? {
        if name.hasPrefix("#x") || name.hasPrefix("#X") {
            return UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
        }
        if name.hasPrefix("#") {
            return UInt32(name.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
        }
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        case "nbsp": return "\u{A0}"
        case "mdash": return "\u{2014}"
        case "ndash": return "\u{2013}"
        case "hellip": return "\u{2026}"
        case "lsquo": return "\u{2018}"
        case "rsquo": return "\u{2019}"
        case "ldquo": return "\u{201C}"
        case "rdquo": return "\u{201D}"
        default: return nil
        }
    }

    // MARK: - Markup

    /// The markup token starting at `position` (a `<`) and where it ends; nil when it never ends.
    private static func markup(at position: Int, in bytes: [UInt8]) -> (Kind, Int)? {
        func starts(_ prefix: String) -> Bool {
            let utf8 = Array(prefix.utf8)
            return position + utf8.count <= bytes.count && Array(bytes[position..<(position + utf8.count)]) == utf8
        }
        func find(_ terminator: String, from start: Int) -> Int? {
            let utf8 = Array(terminator.utf8)
            var index = start
            while index + utf8.count <= bytes.count {
                if bytes[index] == utf8[0], Array(bytes[index..<(index + utf8.count)]) == utf8 { return index + utf8.count }
                index += 1
            }
            return nil
        }
        if starts("<!--") { return find("-->", from: position + 4).map { (.other, $0) } }
        if starts("<![CDATA[") { return find("]]>", from: position + 9).map { (.other, $0) } }
        if starts("<?") { return find("?>", from: position + 2).map { (.other, $0) } }
        if starts("<!") {
            // A DOCTYPE, with any internal subset in brackets.
            var depth = 0
            var index = position + 2
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "]"): depth -= 1
                case UInt8(ascii: ">") where depth <= 0: return (.other, index + 1)
                default: break
                }
                index += 1
            }
            return nil
        }
        let isEnd = starts("</")
        var index = position + (isEnd ? 2 : 1)
        let nameStart = index
        while index < bytes.count, !isASCIISpace(bytes[index]), bytes[index] != UInt8(ascii: ">"), bytes[index] != UInt8(ascii: "/") {
            index += 1
        }
        let qualified = String(decoding: bytes[nameStart..<index], as: UTF8.self)
        guard !qualified.isEmpty else { return nil }
        let name = (qualified.split(separator: ":").last.map(String.init) ?? qualified).lowercased()
        var quote: UInt8?
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                if isEnd { return (.endTag(name: name), index + 1) }
                let selfClosing = bytes[index - 1] == UInt8(ascii: "/")
                return (.startTag(name: name, selfClosing: selfClosing), index + 1)
            }
            index += 1
        }
        return nil
    }

    /// The value of attribute `name` in a start tag's bytes (entities left as they are).
    public static func attribute(_ name: String, inTag tag: ArraySlice<UInt8>) -> String? {
        attributes(inTag: tag).first { $0.name == name }?.value
    }

    /// A start tag's attributes, in order, with where each (name to closing quote) and its value
    /// (inside the quotes) are in the bytes.
    public static func attributes(inTag tag: ArraySlice<UInt8>) -> [(name: String, value: String, range: Range<Int>, valueRange: Range<Int>)] {
        var result: [(String, String, Range<Int>, Range<Int>)] = []
        var index = tag.startIndex + 1
        // Skip the element name.
        while index < tag.endIndex, !isASCIISpace(tag[index]), tag[index] != UInt8(ascii: ">"), tag[index] != UInt8(ascii: "/") { index += 1 }
        while index < tag.endIndex {
            while index < tag.endIndex, isASCIISpace(tag[index]) { index += 1 }
            let nameStart = index
            while index < tag.endIndex, !isASCIISpace(tag[index]), tag[index] != UInt8(ascii: "="), tag[index] != UInt8(ascii: ">"), tag[index] != UInt8(ascii: "/") {
                index += 1
            }
            guard index > nameStart else { break }
            let name = String(decoding: tag[nameStart..<index], as: UTF8.self)
            while index < tag.endIndex, isASCIISpace(tag[index]) { index += 1 }
            guard index < tag.endIndex, tag[index] == UInt8(ascii: "=") else { break }
            index += 1
            while index < tag.endIndex, isASCIISpace(tag[index]) { index += 1 }
            guard index < tag.endIndex, tag[index] == UInt8(ascii: "\"") || tag[index] == UInt8(ascii: "'") else { break }
            let quote = tag[index]
            let valueStart = index + 1
            index = valueStart
            while index < tag.endIndex, tag[index] != quote { index += 1 }
            guard index < tag.endIndex else { break }
            result.append((name, String(decoding: tag[valueStart..<index], as: UTF8.self), nameStart..<(index + 1), valueStart..<index))
            index += 1
        }
        return result
    }
}
