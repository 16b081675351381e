import Foundation
import NarrateDomain

/// Makes a `Book` of what `narrate-pdf` read: the layout analysis's paragraphs on one page per
/// printed page (labelled as printed), its chapters (the outline's, else the headings', else one),
/// its footnotes counted as notes (read at the book's end with `includesMatter`), the title,
/// author and language from the document's metadata.
enum PDFBookAssembler {
    /// Pages that are images share of all pages from which a document counts as a scan.
    static let scanShare = 0.5

    static func book(_ document: PDFWireDocument, path: String, options: ParseOptions) throws(BookError) -> Book {
        let pageCount = max(document.pageCount ?? document.layout.pages.count, document.layout.pages.count)
        let wordCount = document.layout.pages.reduce(0) { $0 + $1.lines.reduce(0) { $0 + $1.words.count } }
        let images = document.imagePages.count
        if images > 0, wordCount == 0 || Double(images) >= Double(max(pageCount, 1)) * scanShare {
            throw .noTextLayer(path: path, imagePages: images, pageCount: pageCount)
        }
        let result = PrintedLayoutAnalyzer.analyze(document.layout)
        var blocks = result.paragraphs.map(\.text).map(TextNormalizer.normalize)
        var markers: [(index: Int, label: String?)] = []
        let labels = Dictionary(document.layout.pages.map { ($0.number, $0.label) }, uniquingKeysWith: { first, _ in first })
        var lastPage = 0
        for (index, paragraph) in result.paragraphs.enumerated() where paragraph.page != lastPage {
            markers.append((index, labels[paragraph.page] ?? String(paragraph.page)))
            lastPage = paragraph.page
        }
        let title = document.title ?? EPUBParser.fileTitle(path)
        var chapters = result.chapters.map { BookLayout.ChapterStart(title: $0.title, depth: $0.depth, blockIndex: $0.paragraphIndex) }
        if chapters.isEmpty || chapters[0].blockIndex > 0 {
            // Text before the first chapter (a title page) belongs to a chapter named after the book.
            chapters.insert(BookLayout.ChapterStart(title: title, depth: 0, blockIndex: 0), at: 0)
        }
        var skipped: [SkippedMatter] = []
        let noteWords = result.notes.reduce(0) { $0 + $1.text.split(separator: " ").count }
        if !result.notes.isEmpty {
            if options.includesMatter {
                chapters.append(BookLayout.ChapterStart(title: "Notes", depth: 0, blockIndex: blocks.count))
                markers.append((blocks.count, nil))
                blocks += result.notes.map { TextNormalizer.normalize("\($0.marker). \($0.text)") }
            } else {
                skipped.append(SkippedMatter(kind: .notes, title: "\(result.notes.count) footnote\(result.notes.count == 1 ? "" : "s")", words: noteWords))
            }
        }
        guard blocks.contains(where: { !$0.isEmpty }) else { throw .noText(path: path) }
        let layout = BookLayout.printPages(blocks: blocks, chapters: chapters, markers: markers)
        let metadata = BookMetadata(
            title: title,
            authors: document.author.map { [$0] } ?? [],
            language: document.language
        )
        return Book(metadata: metadata, format: .pdf, chapters: layout.chapters, pages: layout.pages, skipped: skipped)
    }
}
