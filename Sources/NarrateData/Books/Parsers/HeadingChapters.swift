import NarrateDomain

/// The chapters of a document that has no table of contents of its own (DOCX, ODT, FB2): its
/// headings of the `levels` highest levels it uses, the highest at depth 0, or one chapter named
/// after the book when it has none.
enum HeadingChapters {
    static func starts(_ collected: BlockCollector.Collected, bookTitle: String, levels: Int = 2) -> [BookLayout.ChapterStart] {
        guard let top = collected.headings.map({ $0.level }).min() else {
            return [BookLayout.ChapterStart(title: bookTitle, depth: 0, blockIndex: 0)]
        }
        return collected.headings.filter { $0.level < top + levels }.map {
            BookLayout.ChapterStart(title: $0.text, depth: $0.level - top, blockIndex: $0.index)
        }
    }

    /// The book's pages of about `wordsPerPage` words and its chapters placed on them.
    static func book(
        _ collected: BlockCollector.Collected, format: DocumentFormat, metadata: BookMetadata, options: ParseOptions,
        levels: Int = 2, cover: BookCover? = nil, skipped extra: [SkippedMatter] = []
    ) -> Book {
        let layout = BookLayout.wordPages(
            blocks: collected.blocks, chapters: starts(collected, bookTitle: metadata.title, levels: levels), wordsPerPage: options.wordsPerPage
        )
        // Notes are summed up last, as the collector lists them.
        var skipped = collected.skipped
        let notesAt = skipped.firstIndex { $0.kind == .notes } ?? skipped.endIndex
        skipped.insert(contentsOf: extra, at: notesAt)
        return Book(metadata: metadata, format: format, chapters: layout.chapters, pages: layout.pages, cover: cover, skipped: skipped)
    }
}
