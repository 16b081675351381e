import struct Foundation.Data
import NarrateDomain

/// Reads ODT (OpenDocument text) documents, entirely in memory, with the same archive limits as
/// an EPUB.
///
/// The text is `content.xml`'s, read as `ODTBodyReader` says: chapters come from its headings
/// (the two highest levels used), pages hold about `ParseOptions.wordsPerPage` words. Footnotes
/// and endnotes are notes: not read, counted in `Book.skipped`. Title, author, language and
/// description come from `meta.xml`; the title else from the first paragraph in the Title
/// style, else the file name; the language else from the default paragraph style.
public struct ODTParser: DocumentParserContract {
    public let format = DocumentFormat.odt
    /// Bounds on what the archive may unpack to.
    public var limits: ArchiveLimits

    public static let mimetype = "application/vnd.oasis.opendocument.text"

    public init(limits: ArchiveLimits = ArchiveLimits()) {
        self.limits = limits
    }

    public func parse(_ data: Data, path: String, options: ParseOptions) throws(BookError) -> Book {
        let archive = try OfficeArchive(data: data, path: path, format: .odt, limits: limits)
        // A missing mimetype is tolerated, as in an EPUB; another OpenDocument kind is not text.
        if let mimetype = try archive.read("mimetype").map({ String(decoding: $0, as: UTF8.self).trimmingASCIISpaces() }),
           !mimetype.hasPrefix(Self.mimetype) {
            throw .unreadableDocument(path: path, format: .odt, reason: "its mimetype entry says '\(mimetype.prefix(100))', not OpenDocument text")
        }
        guard archive.contains("content.xml") else { throw archive.missing("content.xml") }
        let styles = ODTStyles(try archive.tree("styles.xml"))
        let properties = DocumentProperties(try archive.tree("meta.xml"))

        let collector = BlockCollector()
        collector.includesMatter = options.includesMatter
        let reader = ODTBodyReader(collector: collector, styles: styles)
        collector.beginDocument("content.xml")
        try archive.stream("content.xml", into: reader)
        collector.endDocument()
        collector.beginDocument("notes")
        reader.finishNotes()
        collector.endDocument()
        let collected = collector.finish()
        guard !collected.blocks.isEmpty else { throw .noText(path: path) }

        let metadata = properties.metadata(titleParagraph: reader.titleParagraph, path: path, defaultLanguage: styles.language)
        return HeadingChapters.book(collected, format: .odt, metadata: metadata, options: options)
    }
}
