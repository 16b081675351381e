import struct Foundation.Data
import NarrateDomain

/// Plain-text books: decoded (UTF-8/UTF-16 with BOM, else Windows-1252), Project Gutenberg
/// header and footer removed, paginated at about `wordsPerPage` words.
public struct PlainTextParser: DocumentParserContract {
    public let format = DocumentFormat.plainText

    public init() {}

    public func parse(_ data: Data, path: String, options: ParseOptions) throws(BookError) -> Book {
        let text = TextFileDecoder.decode(data)
        let header = GutenbergStripper.metadata(in: text)
        let pages = Paginator.pages(of: GutenbergStripper.strip(text), wordsPerPage: options.wordsPerPage)
        guard !pages.isEmpty else { throw .noText(path: path) }
        let fileName = path.split(separator: "/").last.map(String.init) ?? path
        let title = header.title ?? String(fileName.split(separator: ".").first ?? Substring(fileName))
        return Book(
            metadata: BookMetadata(title: title, authors: header.author.map { [$0] } ?? []),
            format: .plainText,
            chapters: [],
            pages: pages.enumerated().map { Page(index: $0.offset + 1, label: String($0.offset + 1), text: $0.element) }
        )
    }
}
