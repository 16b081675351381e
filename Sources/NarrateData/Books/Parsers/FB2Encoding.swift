import struct Foundation.Data
import NarrateDomain

/// An FB2 in UTF-8, whatever encoding its XML declaration names: libxml2 is only ever given
/// UTF-8 (`XMLPreflight` refuses the encodings it could crash on), so a windows-1251 or KOI8-R
/// book — most Russian FB2 files — is decoded here with `SingleByteCharset`'s tables and its
/// declaration rewritten to say UTF-8.
enum FB2Encoding {
    static let declaration = Array(#"<?xml version="1.0" encoding="UTF-8"?>"#.utf8)

    /// `data` as UTF-8 XML.
    /// - Throws: `unsupportedEncoding` when the declared encoding is none Narrate has a table for.
    static func utf8(_ data: Data, path: String) throws(BookError) -> Data {
        let bytes = [UInt8](data)
        // A byte order mark says what the bytes are, whatever the declaration claims.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return Data(redeclared(Array(bytes.dropFirst(3)))) }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            return Data(redeclared(Array(TextFileDecoder.decode(bytes).utf8)))
        }
        // UTF-16 without a mark: "<?" as two 16-bit units.
        if bytes.starts(with: [0x3C, 0x00, 0x3F, 0x00]) { return Data(redeclared(Array(TextFileDecoder.decode([0xFF, 0xFE] + bytes).utf8))) }
        if bytes.starts(with: [0x00, 0x3C, 0x00, 0x3F]) { return Data(redeclared(Array(TextFileDecoder.decode([0xFE, 0xFF] + bytes).utf8))) }
        guard let encoding = XMLPreflight.declaredEncoding(data) else { return data }
        let key = encoding.lowercased()
        if key == "utf-8" || key == "utf8" { return data }
        // A UTF-16 declaration on bytes that are not: read them as UTF-8, as the bytes are.
        if key.hasPrefix("utf-16") || key.hasPrefix("utf16") { return Data(redeclared(bytes)) }
        guard let table = SingleByteCharset.table(named: encoding) else {
            throw .unsupportedEncoding(path: path, encoding: String(encoding.prefix(40)))
        }
        return Data(redeclared(SingleByteCharset.utf8(bytes, table: table)))
    }

    /// `utf8` with its XML declaration (if any) replaced by one that says UTF-8.
    static func redeclared(_ utf8: [UInt8]) -> [UInt8] {
        guard utf8.starts(with: Array("<?xml".utf8)) else { return utf8 }
        let head = utf8.prefix(512)
        var index = head.startIndex
        while index + 1 < head.endIndex {
            if head[index] == UInt8(ascii: "?"), head[index + 1] == UInt8(ascii: ">") {
                return declaration + utf8[(index + 2)...]
            }
            index += 1
        }
        return utf8
    }
}
