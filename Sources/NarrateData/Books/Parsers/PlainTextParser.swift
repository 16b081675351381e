import struct Foundation.Data
import NarrateDomain

/// Reads a plain-text file (any common encoding), without a Project Gutenberg header and licence.
///
/// The title, author, language, release date and credits come from the Gutenberg header when
/// there is one, else the title is the file name without its extension. A printed contents list
/// is left out (its titles would be heard twice), unless `ParseOptions.includesMatter`. The book has a single chapter; pages hold about
/// `ParseOptions.wordsPerPage` words.
public struct PlainTextParser: DocumentParserContract {
    public let format = DocumentFormat.plainText

    public init() {}

    public func parse(_ data: Data, path: String, options: ParseOptions) throws(BookError) -> Book {
        guard !data.isEmpty else { throw .emptyFile(path: path) }
        let text = TextFileDecoder.decode(data)
        let gutenberg = GutenbergStripper.header(in: text)
        var body = text
        var skipped: [SkippedMatter] = []
        if !options.includesMatter {
            body = GutenbergStripper.strip(text)
            if body.utf8.count != text.utf8.count {
                let words = Paginator.wordCount(text) - Paginator.wordCount(body)
                skipped.append(SkippedMatter(kind: .gutenbergBoilerplate, title: "Project Gutenberg header and licence", words: max(0, words)))
            }
            if let contents = TextContentsList.find(in: body) {
                body = contents.remainder
                skipped.append(SkippedMatter(kind: .contents, title: contents.title, words: contents.words))
            }
        }
        let pageTexts = Paginator.pages(of: body, wordsPerPage: max(1, options.wordsPerPage))
            .filter { MarkupText.hasLetterOrDigit($0) }
        guard !pageTexts.isEmpty else { throw .noText(path: path) }
        let title = gutenberg.title.flatMap { $0.isEmpty ? nil : $0 } ?? EPUBParser.fileTitle(path)
        let pages = pageTexts.enumerated().map { offset, text in
            Page(index: offset + 1, label: String(offset + 1), chapterIndex: 0, text: text)
        }
        let metadata = BookMetadata(
            title: title, authors: gutenberg.author.map { [$0] } ?? [],
            language: gutenberg.language.map { LanguageName.tag(for: $0) ?? $0 },
            date: gutenberg.releaseDate, credits: gutenberg.credits
        )
        return Book(
            metadata: metadata,
            format: .plainText,
            chapters: [Chapter(title: title, depth: 0, firstPage: 1)],
            pages: pages,
            skipped: skipped
        )
    }
}
