import struct Foundation.Data
import NarrateDomain

/// Picks the parser for a file: by what its content shows (a ZIP archive's entries, an FB2's
/// root element), else by its extension, else by its first bytes (`<html` is HTML).
public struct DocumentParserFactory: Sendable {
    /// The limits of every ZIP-based format (EPUB, DOCX, ODT, zipped FB2) and of a plain FB2.
    public var epubLimits: ArchiveLimits
    /// The PDF reader: its password for an encrypted PDF, its program and bounds.
    public var pdf: PDFParser

    public init(epubLimits: ArchiveLimits = ArchiveLimits(), pdf: PDFParser = PDFParser()) {
        self.epubLimits = epubLimits
        self.pdf = pdf
    }

    /// The parser for `format`.
    public func parser(for format: DocumentFormat) -> any DocumentParserContract {
        switch format {
        case .epub: EPUBParser(limits: epubLimits)
        case .html: HTMLParser()
        case .markdown: MarkdownParser()
        case .plainText: PlainTextParser()
        case .docx: DOCXParser(limits: epubLimits)
        case .odt: ODTParser(limits: epubLimits)
        case .fb2: FB2Parser(limits: epubLimits)
        case .pdf: pdf
        }
    }

    /// The format `data` shows by its content alone, whatever the file is called: a ZIP
    /// archive's kind (EPUB, DOCX, ODT, zipped FB2), an FB2 or a PDF; nil when the content does not say.
    public static func contentFormat(_ data: Data) -> DocumentFormat? {
        DocumentSniffer.format(of: data)
    }

    /// The format of the file at `path` with content `data`, or nil when Narrate cannot read it.
    public func format(path: String, data: Data) -> DocumentFormat? {
        if let format = DocumentSniffer.format(of: data) { return format }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let named = name.lastIndex(of: ".").flatMap { DocumentFormat(fileExtension: String(name[name.index(after: $0)...])) }
        // A ZIP archive its entries do not name (damaged, cut short, an EPUB without its
        // mimetype): its extension's archive format, else an EPUB, whose parser says what is wrong.
        if DocumentSniffer.isZIP(data) { return named.flatMap { Self.zipFormats.contains($0) ? $0 : nil } ?? .epub }
        if let named { return named }
        let head = String(decoding: data.prefix(512), as: UTF8.self).lowercased()
        if head.contains("<!doctype html") || head.contains("<html") { return .html }
        return nil
    }

    /// The formats that are ZIP archives (a plain FB2 may be zipped too).
    static let zipFormats: Set<DocumentFormat> = [.epub, .docx, .odt, .fb2]

    /// Parses `data` with the parser its format calls for.
    /// - Throws: `BookError.unsupportedFormat` when the format is unknown, else the parser's error.
    public func parse(_ data: Data, path: String, options: ParseOptions = ParseOptions()) throws(BookError) -> Book {
        guard let format = format(path: path, data: data) else { throw .unsupportedFormat(path: path) }
        return try parser(for: format).parse(data, path: path, options: options)
    }
}
