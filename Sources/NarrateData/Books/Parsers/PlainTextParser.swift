import struct Foundation.Data
import NarrateDomain

/// Reads a plain-text file (any common encoding), without a Project Gutenberg header and licence.
///
/// The title and author come from the Gutenberg header when there is one, else the title is the
/// file name without its extension. The book has a single chapter; pages hold about
/// `ParseOptions.wordsPerPage` words.
public struct PlainTextParser: DocumentParserContract {
    public let format = DocumentFormat.plainText

    public init() {}

    public func parse(_ data: Data, path: String, options: ParseOptions) throws(BookError) -> Book {
        guard !data.isEmpty else { throw .emptyFile(path: path) }
        let text = TextFileDecoder.decode(data)
        let gutenberg = GutenbergStripper.metadata(in: text)
        let body = GutenbergStripper.strip(text)
        let pageTexts = Paginator.pages(of: body, wordsPerPage: max(1, options.wordsPerPage))
            .filter { BlockCollector.hasLetterOrDigit($0) }
        guard !pageTexts.isEmpty else { throw .noText(path: path) }
        let title = gutenberg.title.flatMap { $0.isEmpty ? nil : $0 } ?? EPUBParser.fileTitle(path)
        let pages = pageTexts.enumerated().map { offset, text in
            Page(index: offset + 1, label: String(offset + 1), chapterIndex: 0, text: text)
        }
        return Book(
            metadata: BookMetadata(title: title, authors: gutenberg.author.map { [$0] } ?? []),
            format: .plainText,
            chapters: [Chapter(title: title, depth: 0, firstPage: 1)],
            pages: pages
        )
    }
}
