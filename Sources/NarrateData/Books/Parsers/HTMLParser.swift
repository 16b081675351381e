import struct Foundation.Data
import NarrateDomain

/// Reads one HTML (or XHTML) file, leniently: unclosed `<p>`, `<br>`, HTML entities are fine.
///
/// Chapters come from the `<h1>`/`<h2>` headings (the highest level used is depth 0); the title
/// from `<title>`, else the first `<h1>`, else the file name. Pages hold about
/// `ParseOptions.wordsPerPage` words, and a chapter always starts a new page.
public struct HTMLParser: DocumentParserContract {
    public let format = DocumentFormat.html

    public init() {}

    public func parse(_ data: Data, path: String, options: ParseOptions) throws(BookError) -> Book {
        guard !data.isEmpty else { throw .emptyFile(path: path) }
        let document = EPUBParser.fileTitle(path)
        let collector = BlockCollector()
        collector.includesMatter = options.includesMatter
        collector.beginDocument(document)
        HTMLScanner.scan(TextFileDecoder.decode(data), into: collector)
        collector.endDocument()
        let collected = collector.finish()
        guard !collected.blocks.isEmpty else { throw .noText(path: path) }

        let chapterHeadings = collected.headings.filter { $0.level <= 2 }
        let topLevel = chapterHeadings.map(\.level).min() ?? 1
        let chapters = chapterHeadings.map {
            BookLayout.ChapterStart(title: $0.text, depth: $0.level - topLevel, blockIndex: $0.index)
        }
        let layout = BookLayout.wordPages(blocks: collected.blocks, chapters: chapters, wordsPerPage: options.wordsPerPage)
        let title = collected.documentTitles[document].flatMap { $0.isEmpty ? nil : $0 }
            ?? collected.headings.first { $0.level == 1 }?.text
            ?? document
        return Book(metadata: BookMetadata(title: title), format: .html, chapters: layout.chapters, pages: layout.pages, skipped: collected.skipped)
    }
}
