import struct Foundation.Data
import NarrateDomain

/// Reads DOCX (Office Open XML word processing) documents, entirely in memory, with the same
/// archive limits as an EPUB.
///
/// The text is the main document part's (the package's `officeDocument` relationship, usually
/// `word/document.xml`), read as `DOCXBodyReader` says: chapters come from its headings (the
/// two highest levels used), pages hold about `ParseOptions.wordsPerPage` words. Footnotes and
/// endnotes are notes: not read, counted in `Book.skipped`. Title, authors, language and
/// description come from the core properties (`docProps/core.xml`); the title else from the
/// first paragraph in the Title style, else the file name; the language else from the styles'
/// default.
public struct DOCXParser: DocumentParserContract {
    public let format = DocumentFormat.docx
    /// Bounds on what the archive may unpack to.
    public var limits: ArchiveLimits

    public init(limits: ArchiveLimits = ArchiveLimits()) {
        self.limits = limits
    }

    public func parse(_ data: Data, path: String, options: ParseOptions) throws(BookError) -> Book {
        let archive = try OfficeArchive(data: data, path: path, format: .docx, limits: limits)
        let package = OPCRelationships(try archive.tree("_rels/.rels"), base: "")
        let main = package.target("officeDocument").flatMap { archive.contains($0) ? $0 : nil } ?? "word/document.xml"
        guard archive.contains(main) else { throw archive.missing("word/document.xml") }
        let parts = OPCRelationships(try archive.tree(OPCRelationships.relationshipsPart(of: main)), base: EPUBPath.directory(of: main))
        let styles = DOCXStyles(try archive.tree(parts.target("styles") ?? "word/styles.xml"))
        let properties = DocumentProperties(try archive.tree(package.target("core-properties") ?? "docProps/core.xml"))

        let collector = BlockCollector()
        collector.includesMatter = options.includesMatter
        let reader = DOCXBodyReader(collector: collector, styles: styles, includesMatter: options.includesMatter)
        for part in [main, parts.target("footnotes"), parts.target("endnotes")] {
            guard let part, archive.contains(part) else { continue }
            reader.beginPart()
            collector.beginDocument(part)
            try archive.stream(part, into: reader)
            collector.endDocument()
        }
        let collected = collector.finish()
        guard !collected.blocks.isEmpty else { throw .noText(path: path) }

        let metadata = properties.metadata(titleParagraph: reader.titleParagraph, path: path, defaultLanguage: styles.language)
        return HeadingChapters.book(collected, format: .docx, metadata: metadata, options: options, skipped: reader.fieldMatter)
    }
}
