import struct Foundation.Data
import NarrateDomain

/// Reads FictionBook 2 books (`.fb2`, and `.fb2.zip`: a ZIP archive holding one), entirely in
/// memory.
///
/// The text is the main body's, read as `FB2Reader` says: every titled section is a chapter at
/// its depth; pages hold about `ParseOptions.wordsPerPage` words. The notes body is notes: not
/// read, counted in `Book.skipped`. Title, authors, language, annotation, publisher, year and
/// ISBN come from the description's `title-info` and `publish-info`; the cover from its
/// `coverpage`. A file in a single-byte encoding (windows-1251, KOI8-R…) is read as its XML
/// declaration says.
public struct FB2Parser: DocumentParserContract {
    public let format = DocumentFormat.fb2
    /// Bounds on the archive of a zipped FB2, and on the size of the FB2 itself (one entry's).
    public var limits: ArchiveLimits

    public init(limits: ArchiveLimits = ArchiveLimits()) {
        self.limits = limits
    }

    public func parse(_ data: Data, path: String, options: ParseOptions) throws(BookError) -> Book {
        guard !data.isEmpty else { throw .emptyFile(path: path) }
        let document = try DocumentSniffer.isZIP(data) ? unzipped(data, path: path) : data
        guard document.count <= limits.maxEntrySize else {
            throw .unreadableDocument(path: path, format: .fb2, reason: "it is larger than \(limits.maxEntrySize / 1_048_576) MiB, more than Narrate reads in one FB2 book")
        }
        let xml = try FB2Encoding.utf8(document, path: path)
        guard DocumentSniffer.isFictionBook(xml) else {
            throw .unreadableDocument(path: path, format: .fb2, reason: "it is not FictionBook XML (its root element is not <FictionBook>)")
        }

        let collector = BlockCollector()
        collector.includesMatter = options.includesMatter
        let reader = FB2Reader(collector: collector)
        collector.beginDocument("fb2")
        if let error = XMLStream.parse(xml, into: reader) {
            throw .unreadableDocument(path: path, format: .fb2, reason: "it is not well-formed XML (\(error.reason))")
        }
        collector.endDocument()
        let collected = collector.finish()
        guard !collected.blocks.isEmpty else { throw .noText(path: path) }

        let metadata = BookMetadata(
            title: reader.title ?? EPUBParser.fileTitle(path.lowercased().hasSuffix(".fb2.zip") ? String(path.dropLast(4)) : path),
            authors: reader.authors,
            language: reader.language,
            identifier: reader.isbn,
            publisher: reader.publisher,
            date: reader.year,
            bookDescription: reader.bookDescription
        )
        return HeadingChapters.book(collected, format: .fb2, metadata: metadata, options: options, levels: 6, cover: reader.cover)
    }

    /// The one FB2 a `.fb2.zip` holds.
    private func unzipped(_ data: Data, path: String) throws(BookError) -> Data {
        let archive = try OfficeArchive(data: data, path: path, format: .fb2, limits: limits)
        let books = archive.names.filter { $0.lowercased().hasSuffix(".fb2") }
        guard books.count == 1, let entry = books.first, let document = try archive.read(entry) else {
            let found = books.isEmpty ? "no .fb2 file" : "\(books.count) .fb2 files"
            throw .unreadableDocument(path: path, format: .fb2, reason: "it is a ZIP archive with \(found) in it, where a zipped FB2 has one")
        }
        return document
    }
}
