import NarrateDomain

/// Cuts a book's blocks into pages and places its chapters on them.
///
/// Deterministic: the same blocks, chapter starts and markers always give the same pages.
enum BookLayout {
    /// Where a table-of-contents entry starts in the block list.
    struct ChapterStart {
        var title: String
        var depth: Int
        var blockIndex: Int
    }

    /// Pages of about `wordsPerPage` words; every chapter starts a new page.
    static func wordPages(blocks: [String], chapters: [ChapterStart], wordsPerPage: Int) -> (chapters: [Chapter], pages: [Page]) {
        let chapters = chapters.filter { $0.blockIndex >= 0 && $0.blockIndex < blocks.count }
        var breaks = Set(chapters.map(\.blockIndex))
        breaks.insert(0)
        let sortedBreaks = breaks.sorted()
        var pageTexts: [String] = []
        var firstPageOfBlock: [Int: Int] = [:]
        for (position, start) in sortedBreaks.enumerated() where start < blocks.count {
            let end = position + 1 < sortedBreaks.count ? sortedBreaks[position + 1] : blocks.count
            firstPageOfBlock[start] = pageTexts.count + 1
            pageTexts += Paginator.pages(ofParagraphs: Array(blocks[start..<end]), wordsPerPage: max(1, wordsPerPage))
        }
        let placed = chapters.map {
            Chapter(title: $0.title, depth: $0.depth, firstPage: firstPageOfBlock[$0.blockIndex] ?? 1)
        }
        let pages = pageTexts.enumerated().map { offset, text in
            Page(index: offset + 1, label: String(offset + 1), text: normalized(text))
        }
        return (placed, assignChapters(placed, to: pages))
    }

    /// Print pages: a page runs from one marker to the next, labelled as printed. Text before the
    /// first marker is a page of its own.
    static func printPages(
        blocks: [String], chapters: [ChapterStart], markers: [(index: Int, label: String?)]
    ) -> (chapters: [Chapter], pages: [Page]) {
        let chapters = chapters.filter { $0.blockIndex >= 0 && $0.blockIndex < blocks.count }
        var starts = markers
            .map { (index: min(max($0.index, 0), blocks.count), label: $0.label) }
            .enumerated()
            .sorted { ($0.element.index, $0.offset) < ($1.element.index, $1.offset) }
            .map(\.element)
        if let first = starts.first, first.index > 0 {
            starts.insert((0, nil), at: 0)
        }
        var pages: [Page] = []
        for (position, start) in starts.enumerated() {
            let end = position + 1 < starts.count ? starts[position + 1].index : blocks.count
            let text = normalized(blocks[start.index..<max(start.index, end)].joined(separator: "\n\n"))
            let number = pages.count + 1
            pages.append(Page(index: number, label: start.label ?? String(number), text: text))
        }
        let placed = chapters.map { chapter in
            // The last page that starts at or before the chapter's first block, and where in its text that
            // block starts: several chapters may start on one printed page.
            let position = starts.lastIndex { $0.index <= chapter.blockIndex }
            let page = position.map { $0 + 1 } ?? 1
            let pageStart = position.map { starts[$0].index } ?? 0
            let offset = textOffset(ofBlock: chapter.blockIndex, from: pageStart, in: blocks)
            return Chapter(
                title: chapter.title, depth: chapter.depth, firstPage: page,
                textOffset: min(offset, pages.indices.contains(page - 1) ? pages[page - 1].text.unicodeScalars.count : 0)
            )
        }
        return (placed, assignChapters(placed, to: pages))
    }

    /// Where block `block` starts in the text of a page made of the blocks from `pageStart`, in scalars: the
    /// normalized blocks before it and the blank line after them. Normalizing works paragraph by paragraph, so
    /// the blocks before normalize the same alone as at the top of the page.
    static func textOffset(ofBlock block: Int, from pageStart: Int, in blocks: [String]) -> Int {
        guard block > pageStart else { return 0 }
        let before = normalized(blocks[pageStart..<block].joined(separator: "\n\n"))
        return before.isEmpty ? 0 : before.unicodeScalars.count + 2
    }

    /// The page text in `TextNormalizer`'s form. Blocks are already folded, so only NFC and control
    /// characters are left to do, and printable ASCII needs neither.
    static func normalized(_ text: String) -> String {
        guard text.utf8.contains(where: { ($0 < 0x20 && $0 != 0x0A) || $0 > 0x7E }) else { return text }
        return TextNormalizer.normalize(text)
    }

    /// Each page belongs to the chapter in force at the top of its text: the latest start at or before it (the
    /// later table-of-contents entry when several start there). A chapter starting lower on a page takes the
    /// pages after it.
    private static func assignChapters(_ chapters: [Chapter], to pages: [Page]) -> [Page] {
        guard !chapters.isEmpty else { return pages }
        let order = chapters.indices.sorted {
            (chapters[$0].firstPage, chapters[$0].textOffset, $0) < (chapters[$1].firstPage, chapters[$1].textOffset, $1)
        }
        var result = pages
        var cursor = 0
        var currentChapter: Int?
        for pageIndex in result.indices {
            let page = result[pageIndex].index
            while cursor < order.count, chapters[order[cursor]].firstPage < page
                || (chapters[order[cursor]].firstPage == page && chapters[order[cursor]].textOffset == 0) {
                currentChapter = order[cursor]
                cursor += 1
            }
            result[pageIndex].chapterIndex = currentChapter
        }
        return result
    }
}
