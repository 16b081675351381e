/// A forgiving HTML tokenizer: tags, attributes, text and character references, as a browser
/// would read them without building a tree. Unclosed elements, `<br>`, unquoted attributes and
/// HTML named entities (`&nbsp;`) are all fine; it never fails.
///
/// FoundationXML on Linux has no HTML mode: `XMLDocument(data:options: .documentTidyHTML)` parses
/// as XML in recovery mode there, which drops `&nbsp;` and nests everything after a `<br>`. So this
/// small scanner reads HTML files, and XHTML files that are not well-formed XML.
struct HTMLScanner {
    static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
        "track", "wbr",
    ]
    static let rawTextElements: Set<String> = ["script", "style", "textarea", "xmp", "noscript"]

    /// Feeds the markup in `text` to `collector` as element and text events.
    static func scan(_ text: String, into collector: BlockCollector) {
        let bytes = Array(text.utf8)
        var index = 0
        var textStart = 0

        func emitText(upTo end: Int) {
            guard end > textStart else { return }
            let run = String(decoding: bytes[textStart..<end], as: UTF8.self)
            collector.characters(decodeEntities(run))
        }

        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<"), index + 1 < bytes.count else {
                index += 1
                continue
            }
            let next = bytes[index + 1]
            if next == UInt8(ascii: "!") {
                emitText(upTo: index)
                if matches(bytes, at: index, "<!--") {
                    index = find(bytes, "-->", from: index + 4).map { $0 + 3 } ?? bytes.count
                } else if matches(bytes, at: index, "<![CDATA[") {
                    let end = find(bytes, "]]>", from: index + 9) ?? bytes.count
                    collector.characters(String(decoding: bytes[(index + 9)..<end], as: UTF8.self))
                    index = min(end + 3, bytes.count)
                } else {
                    index = find(bytes, ">", from: index).map { $0 + 1 } ?? bytes.count
                }
                textStart = index
            } else if next == UInt8(ascii: "?") {
                emitText(upTo: index)
                index = find(bytes, ">", from: index).map { $0 + 1 } ?? bytes.count
                textStart = index
            } else if next == UInt8(ascii: "/") || isLetter(next) {
                emitText(upTo: index)
                index = scanTag(bytes, from: index, into: collector)
                textStart = index
            } else {
                index += 1  // a lone "<" in text
            }
        }
        emitText(upTo: bytes.count)
    }

    /// Reads one tag starting at `start` ("<"), emits it, and returns the index after it.
    private static func scanTag(_ bytes: [UInt8], from start: Int, into collector: BlockCollector) -> Int {
        var index = start + 1
        let closing = bytes[index] == UInt8(ascii: "/")
        if closing { index += 1 }
        let nameStart = index
        while index < bytes.count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: ">"), bytes[index] != UInt8(ascii: "/") {
            index += 1
        }
        let name = String(decoding: bytes[nameStart..<index], as: UTF8.self).lowercased()
        var attributes: [String: String] = [:]
        var selfClosing = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ">") {
                index += 1
                break
            }
            if isSpace(byte) {
                index += 1
                continue
            }
            if byte == UInt8(ascii: "/") {
                selfClosing = true
                index += 1
                continue
            }
            selfClosing = false
            let keyStart = index
            while index < bytes.count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: "="), bytes[index] != UInt8(ascii: ">") {
                index += 1
            }
            let key = String(decoding: bytes[keyStart..<index], as: UTF8.self).lowercased()
            while index < bytes.count, isSpace(bytes[index]) { index += 1 }
            var value = ""
            if index < bytes.count, bytes[index] == UInt8(ascii: "=") {
                index += 1
                while index < bytes.count, isSpace(bytes[index]) { index += 1 }
                if index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
                    let quote = bytes[index]
                    let valueStart = index + 1
                    let end = bytes[valueStart...].firstIndex(of: quote) ?? bytes.count
                    value = String(decoding: bytes[valueStart..<end], as: UTF8.self)
                    index = min(end + 1, bytes.count)
                } else {
                    let valueStart = index
                    while index < bytes.count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: ">") { index += 1 }
                    value = String(decoding: bytes[valueStart..<index], as: UTF8.self)
                }
            }
            if !key.isEmpty, attributes[key] == nil { attributes[key] = decodeEntities(value) }
        }
        guard !name.isEmpty else { return index }
        if closing {
            collector.endElement(name)
            return index
        }
        collector.startElement(name, attributes: attributes)
        if voidElements.contains(name) || selfClosing {
            collector.endElement(name)
        } else if rawTextElements.contains(name) {
            // Script and style content is not markup: skip to the matching end tag.
            let end = findClosingTag(bytes, name: name, from: index) ?? bytes.count
            if end > index { collector.characters(String(decoding: bytes[index..<end], as: UTF8.self)) }
            collector.endElement(name)
            index = find(bytes, ">", from: end).map { $0 + 1 } ?? bytes.count
        }
        return index
    }

    private static func findClosingTag(_ bytes: [UInt8], name: String, from start: Int) -> Int? {
        let needle = Array(("</" + name).utf8)
        var index = start
        while let found = find(bytes, "</", from: index) {
            if found + needle.count <= bytes.count,
               zip(bytes[found..<(found + needle.count)], needle).allSatisfy({ lower($0) == $1 }) {
                return found
            }
            index = found + 2
        }
        return nil
    }

    private static func matches(_ bytes: [UInt8], at index: Int, _ literal: String) -> Bool {
        let needle = Array(literal.utf8)
        guard index + needle.count <= bytes.count else { return false }
        return zip(bytes[index..<(index + needle.count)], needle).allSatisfy { lower($0) == lower($1) }
    }

    private static func find(_ bytes: [UInt8], _ literal: String, from start: Int) -> Int? {
        let needle = Array(literal.utf8)
        guard let first = needle.first, start < bytes.count else { return nil }
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index] == first, matches(bytes, at: index, literal) { return index }
            index += 1
        }
        return nil
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
    }

    private static func isSpace(_ byte: UInt8) -> Bool { MarkupText.isASCIISpace(byte) }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    // MARK: - Character references

    /// Replaces `&name;`, `&#123;` and `&#x1F;` by their characters; unknown ones stay as written.
    static func decodeEntities(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        var result = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            let afterAmp = rest.index(after: amp)
            let limit = rest.index(afterAmp, offsetBy: 32, limitedBy: rest.endIndex) ?? rest.endIndex
            if let semicolon = rest[afterAmp..<limit].firstIndex(of: ";"),
               let decoded = decodeReference(rest[afterAmp..<semicolon]) {
                result += decoded
                rest = rest[rest.index(after: semicolon)...]
            } else {
                result += "&"
                rest = rest[afterAmp...]
            }
        }
        result += rest
        return result
    }

    private static func decodeReference(_ reference: Substring) -> String? {
        if reference.first == "#" {
            let digits = reference.dropFirst()
            let value: UInt32?
            if digits.first == "x" || digits.first == "X" {
                value = UInt32(digits.dropFirst(), radix: 16)
            } else {
                value = UInt32(digits)
            }
            guard let value, let scalar = Unicode.Scalar(value), value != 0 else { return nil }
            return String(Character(scalar))
        }
        return namedEntities[String(reference)].map { String(Character($0)) }
    }

    static let namedEntities: [String: Unicode.Scalar] = {
        var table: [String: Unicode.Scalar] = [
            "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}",
            "ensp": "\u{2002}", "emsp": "\u{2003}", "thinsp": "\u{2009}", "zwnj": "\u{200C}", "zwj": "\u{200D}",
            "lrm": "\u{200E}", "rlm": "\u{200F}", "ndash": "\u{2013}", "mdash": "\u{2014}", "lsquo": "\u{2018}",
            "rsquo": "\u{2019}", "sbquo": "\u{201A}", "ldquo": "\u{201C}", "rdquo": "\u{201D}", "bdquo": "\u{201E}",
            "dagger": "\u{2020}", "Dagger": "\u{2021}", "bull": "\u{2022}", "hellip": "\u{2026}", "permil": "\u{2030}",
            "prime": "\u{2032}", "Prime": "\u{2033}", "lsaquo": "\u{2039}", "rsaquo": "\u{203A}", "euro": "\u{20AC}",
            "trade": "\u{2122}", "larr": "\u{2190}", "rarr": "\u{2192}", "OElig": "\u{152}", "oelig": "\u{153}",
            "Scaron": "\u{160}", "scaron": "\u{161}", "Yuml": "\u{178}", "fnof": "\u{192}", "circ": "\u{2C6}",
            "tilde": "\u{2DC}", "minus": "\u{2212}",
        ]
        // ISO 8859-1: U+00A1 … U+00FF in order.
        let latin1 = """
            iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 \
            acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc \
            Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde \
            Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave \
            aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth \
            ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml
            """
        for (offset, name) in latin1.split(separator: " ").enumerated() {
            if let scalar = Unicode.Scalar(0xA1 + UInt32(offset)) { table[String(name)] = scalar }
        }
        return table
    }()
}
