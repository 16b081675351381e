import struct Foundation.Data
import NarrateDomain

/// Picks the parser for a file: by its extension, else by its first bytes (a ZIP is read as an
/// EPUB, `<html` as HTML).
public struct DocumentParserFactory: Sendable {
    public var epubLimits: ArchiveLimits

    public init(epubLimits: ArchiveLimits = ArchiveLimits()) {
        self.epubLimits = epubLimits
    }

    /// The parser for `format`.
    public func parser(for format: DocumentFormat) -> any DocumentParserContract {
        switch format {
        case .epub: EPUBParser(limits: epubLimits)
        case .html: HTMLParser()
        case .markdown: MarkdownParser()
        case .plainText: PlainTextParser()
        }
    }

    /// The format of the file at `path` with content `data`, or nil when Narrate cannot read it.
    public func format(path: String, data: Data) -> DocumentFormat? {
        let prefix = Array(data.prefix(512))
        // A ZIP local file header: EPUBs with odd names (`.zip`, no extension, `.epub.part`).
        if prefix.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return .epub }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if let dot = name.lastIndex(of: "."), let format = DocumentFormat(fileExtension: String(name[name.index(after: dot)...])) {
            return format
        }
        let head = String(decoding: prefix, as: UTF8.self).lowercased()
        if head.contains("<!doctype html") || head.contains("<html") { return .html }
        return nil
    }

    /// Parses `data` with the parser its format calls for.
    /// - Throws: `BookError.unsupportedFormat` when the format is unknown, else the parser's error.
    public func parse(_ data: Data, path: String, options: ParseOptions = ParseOptions()) throws(BookError) -> Book {
        guard let format = format(path: path, data: data) else { throw .unsupportedFormat(path: path) }
        return try parser(for: format).parse(data, path: path, options: options)
    }
}
