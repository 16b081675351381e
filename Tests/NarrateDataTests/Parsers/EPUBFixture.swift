import Foundation
import ZIPFoundation

/// Small EPUBs built in memory for the tests, and ways to damage them.
enum EPUBFixture {
    static let container = """
        <?xml version="1.0"?>
        <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
        <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
        </container>
        """

    static func opf(
        manifest: String = #"<item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/>"#,
        spine: String = #"<itemref idref="c1"/>"#
    ) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="uid">
        <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
        <dc:identifier id="uid">fixture</dc:identifier><dc:title>Fixture Book</dc:title><dc:language>fr-CA</dc:language>
        </metadata>
        <manifest>\(manifest)</manifest>
        <spine>\(spine)</spine>
        </package>
        """
    }

    static let chapterXHTML = """
        <?xml version="1.0" encoding="UTF-8"?>
        <html xmlns="http://www.w3.org/1999/xhtml"><head><title>One</title></head>
        <body><h1>One</h1><p>Hello there.</p></body></html>
        """

    static func entries(opf: String = opf(), chapter: Data = Data(chapterXHTML.utf8)) -> [(String, Data)] {
        [
            ("mimetype", Data("application/epub+zip".utf8)),
            ("META-INF/container.xml", Data(container.utf8)),
            ("OEBPS/content.opf", Data(opf.utf8)),
            ("OEBPS/c1.xhtml", chapter),
        ]
    }

    static var minimalEntries: [(String, Data)] { entries() }

    /// A ZIP archive in memory with `entries` in order (the first stored, the others deflated).
    static func archive(_ entries: [(String, Data)]) throws -> Data {
        let archive = try Archive(data: Data(), accessMode: .create)
        for (offset, (name, content)) in entries.enumerated() {
            try archive.addEntry(
                with: name, type: .file, uncompressedSize: Int64(content.count),
                compressionMethod: offset == 0 ? .none : .deflate
            ) { position, size in
                content.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        guard let data = archive.data else { throw CocoaError(.fileWriteUnknown) }
        return data
    }

    /// The text of `name` inside the ZIP `data`.
    static func entry(_ name: String, in data: Data) throws -> String {
        let archive = try Archive(data: data, accessMode: .read)
        guard let entry = archive[name] else { throw CocoaError(.fileNoSuchFile) }
        var content = Data()
        _ = try archive.extract(entry) { content.append($0) }
        return String(decoding: content, as: UTF8.self)
    }

    /// Overwrites the uncompressed size that the local header and the central directory record
    /// of `entry` declare: a lying header, as in a crafted ZIP bomb.
    static func patchUncompressedSize(in data: inout Data, entry: String, to size: UInt32) {
        let name = Array(entry.utf8)
        var bytes = [UInt8](data)
        let little = [UInt8(size & 0xFF), UInt8((size >> 8) & 0xFF), UInt8((size >> 16) & 0xFF), UInt8(size >> 24)]
        var index = 0
        while index + 46 < bytes.count {
            let signature = Array(bytes[index..<index + 4])
            if signature == [0x50, 0x4B, 0x03, 0x04] {
                let nameLength = Int(bytes[index + 26]) | Int(bytes[index + 27]) << 8
                if index + 30 + nameLength <= bytes.count, Array(bytes[(index + 30)..<(index + 30 + nameLength)]) == name {
                    bytes.replaceSubrange((index + 22)..<(index + 26), with: little)
                }
            } else if signature == [0x50, 0x4B, 0x01, 0x02] {
                let nameLength = Int(bytes[index + 28]) | Int(bytes[index + 29]) << 8
                if index + 46 + nameLength <= bytes.count, Array(bytes[(index + 46)..<(index + 46 + nameLength)]) == name {
                    bytes.replaceSubrange((index + 24)..<(index + 28), with: little)
                }
            }
            index += 1
        }
        data = Data(bytes)
    }

    /// Overwrites a 32-bit field of `entry`'s central directory record (`offset` from the
    /// record's start: 20 compressed size, 42 local header offset): a crafted or damaged ZIP.
    static func patchDirectoryField(in data: inout Data, entry: String, offset: Int, to value: UInt32) {
        let name = Array(entry.utf8)
        var bytes = [UInt8](data)
        let little = [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24)]
        var index = 0
        while index + 46 < bytes.count {
            if Array(bytes[index..<index + 4]) == [0x50, 0x4B, 0x01, 0x02] {
                let nameLength = Int(bytes[index + 28]) | Int(bytes[index + 29]) << 8
                if index + 46 + nameLength <= bytes.count, Array(bytes[(index + 46)..<(index + 46 + nameLength)]) == name {
                    bytes.replaceSubrange((index + offset)..<(index + offset + 4), with: little)
                }
            }
            index += 1
        }
        data = Data(bytes)
    }
}
