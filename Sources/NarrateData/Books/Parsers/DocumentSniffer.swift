import struct Foundation.Data
import NarrateDomain

/// What a file is by its content alone, whatever its name says: a ZIP archive by its entries
/// (an EPUB's or ODT's `mimetype`, a DOCX's `[Content_Types].xml` and `word/` parts, a single
/// `.fb2` inside), an FB2 by its root element, a PDF by `%PDF-`.
enum DocumentSniffer {
    static let zipMagic: [UInt8] = [0x50, 0x4B, 0x03, 0x04]

    /// Whether `data` starts like a ZIP archive.
    static func isZIP(_ data: Data) -> Bool {
        data.prefix(4).elementsEqual(zipMagic)
    }

    /// The format the content of `data` shows, or nil when it shows none for sure.
    static func format(of data: Data) -> DocumentFormat? {
        if isZIP(data) { return zipFormat(data) }
        // Other formats known by a signature of their own are told here.
        if PDFParser.looksLikePDF(data) { return .pdf }
        return isFictionBook(data) ? .fb2 : nil
    }

    /// The format of a ZIP archive: by its central directory, or for an archive cut short, by the
    /// local headers before the cut.
    static func zipFormat(_ data: Data) -> DocumentFormat? {
        let entries = (try? ZIPLayout.entries(data, path: "")) ?? localEntries(data)
        let names = entries.map(\.name)
        if let mimetype = entries.first(where: { $0.name == "mimetype" }), mimetype.method == 0, mimetype.compressedSize <= 100,
           mimetype.dataStart + mimetype.compressedSize <= data.count {
            let start = data.startIndex + mimetype.dataStart
            let value = String(decoding: data[start..<(start + mimetype.compressedSize)], as: UTF8.self).trimmingASCIISpaces()
            if value == "application/epub+zip" { return .epub }
            if value.hasPrefix("application/vnd.oasis.opendocument.text") { return .odt }
        }
        if names.contains("word/document.xml") || (names.contains("[Content_Types].xml") && names.contains { $0.hasPrefix("word/") }) {
            return .docx
        }
        if names.contains("META-INF/container.xml") { return .epub }
        let books = names.filter { $0.lowercased().hasSuffix(".fb2") }
        return books.count == 1 ? .fb2 : nil
    }

    /// The entries whose local headers come one after another from the start, up to the first
    /// that is cut off. After an entry whose sizes follow its data (a data descriptor), the next
    /// header is looked for: a name is all that is needed here.
    static func localEntries(_ data: Data) -> [ZIPLayout.Entry] {
        let bytes = [UInt8](data.prefix(1 << 20))
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        var entries: [ZIPLayout.Entry] = []
        var cursor = 0
        while entries.count < 64, cursor + 30 <= bytes.count, u32(cursor) == 0x0403_4B50 {
            let nameLength = u16(cursor + 26)
            let dataStart = cursor + 30 + nameLength + u16(cursor + 28)
            guard cursor + 30 + nameLength <= bytes.count else { break }
            let name = String(decoding: bytes[(cursor + 30)..<(cursor + 30 + nameLength)], as: UTF8.self)
            let compressedSize = u32(cursor + 18)
            entries.append(ZIPLayout.Entry(
                name: name, method: u16(cursor + 8), dataStart: dataStart, compressedSize: compressedSize,
                uncompressedSize: u32(cursor + 22), crc32: UInt32(u32(cursor + 14))
            ))
            if u16(cursor + 6) & 0x08 == 0 {
                cursor = dataStart + compressedSize
            } else {
                guard let next = nextHeader(in: bytes, after: dataStart) else { break }
                cursor = next
            }
        }
        return entries
    }

    private static func nextHeader(in bytes: [UInt8], after start: Int) -> Int? {
        var index = max(start, 0)
        while index + 4 <= bytes.count {
            if bytes[index] == 0x50, bytes[index + 1] == 0x4B, bytes[index + 2] == 0x03, bytes[index + 3] == 0x04 { return index }
            index += 1
        }
        return nil
    }

    /// Whether `data` is XML whose root element is `FictionBook` (after a byte order mark, the
    /// XML declaration, comments and a DOCTYPE), in UTF-8, UTF-16 or any ASCII-compatible encoding.
    static func isFictionBook(_ data: Data) -> Bool {
        // UTF-16's NUL halves dropped, an ASCII view of the first bytes is enough for markup.
        let head = data.prefix(4096).filter { $0 != 0 && $0 < 0x80 }
        var text = Substring(String(decoding: head, as: UTF8.self))
        while true {
            text = text.drop { $0.isWhitespace }
            if text.hasPrefix("<?") || text.hasPrefix("<!--") || text.hasPrefix("<!") {
                let close = text.hasPrefix("<!--") ? "-->" : text.hasPrefix("<?") ? "?>" : ">"
                guard let end = text.range(of: close) else { return false }
                text = text[end.upperBound...]
                continue
            }
            guard text.hasPrefix("<") else { return false }
            let name = text.dropFirst().prefix { !$0.isWhitespace && $0 != ">" && $0 != "/" }
            return name == "FictionBook" || name.hasSuffix(":FictionBook")
        }
    }
}
