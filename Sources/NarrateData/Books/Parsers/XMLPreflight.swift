import Foundation

/// What must not reach libxml2 (through `XMLParser`), found by looking at the bytes first.
///
/// - An encoding other than UTF-8 or UTF-16 (EPUB, DOCX and ODT allow no other; ASCII and Latin-1 are
///   read by libxml2 itself): libxml2 1.51-era builds crash on some (`EBCDIC-US`).
/// - Entity declarations (`<!ENTITY`): a 1 MB entity referenced a million times costs minutes,
///   and an external one is silently dropped with the text after it. Book content has no
///   business declaring entities.
enum XMLPreflight {
    static let readableEncodings: Set<String> = ["utf-8", "utf8", "utf-16", "utf-16le", "utf-16be", "us-ascii", "ascii", "iso-8859-1", "latin1"]

    /// Why `data` must not be parsed as XML, or `nil`.
    static func problem(in data: Data) -> String? {
        if let encoding = declaredEncoding(data), !readableEncodings.contains(encoding.lowercased()) {
            return "it declares the encoding '\(encoding)'; book files are UTF-8 or UTF-16"
        }
        if data.range(of: Data("<!ENTITY".utf8)) != nil || data.range(of: Data("<\0!\0E\0N\0T\0I\0T\0Y\0".utf8)) != nil {
            return "it declares entities, which book files do not"
        }
        return nil
    }

    /// The `encoding` of the XML declaration (`<?xml version="1.0" encoding="…"?>`), when the
    /// document starts with one in an ASCII-compatible encoding.
    static func declaredEncoding(_ data: Data) -> String? {
        let head = [UInt8](data.prefix(256))
        let text = String(decoding: head.drop { $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }, as: UTF8.self)
        guard text.hasPrefix("<?xml"), let close = text.range(of: "?>") else { return nil }
        let declaration = text[..<close.lowerBound]
        guard let key = declaration.range(of: "encoding") else { return nil }
        let rest = declaration[key.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        let value = rest.dropFirst().prefix { $0 != quote }
        return value.isEmpty ? nil : String(value)
    }
}
