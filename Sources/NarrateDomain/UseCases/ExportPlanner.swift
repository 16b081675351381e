/// Cuts a book into the audio files of an export (pure and deterministic).
public enum ExportPlanner {
    /// The files for `book`, in reading order.
    /// - Throws: `ExportError.invalidSelection` for a range outside the book or a book with no pages.
    public static func plan(book: Book, split: ExportSplit, selection: ExportSelection) throws(ExportError) -> [ExportItem] {
        let pages = try selectedPages(of: book, selection: selection)
        let starts = chapterStarts(of: book)
        let groups: [(title: String, pages: [Page])]
        switch split {
        case .book:
            groups = [(book.metadata.title, pages)]
        case .page:
            groups = pages.map { page in
                let chapter = chapterTitle(for: page.index, starts: starts)
                return ([chapter, "page \(page.label)"].compactMap { $0 }.joined(separator: " - "), [page])
            }
        case .chapter:
            var result: [(String, [Page])] = []
            for page in pages {
                let isStart = starts[page.index] != nil || result.isEmpty
                if isStart {
                    result.append((chapterTitle(for: page.index, starts: starts) ?? book.metadata.title, [page]))
                } else {
                    result[result.count - 1].1.append(page)
                }
            }
            groups = result
        }
        let width = max(3, String(groups.count).count)
        return groups.enumerated().map { offset, group in
            let number = offset + 1
            let padded = String(repeating: "0", count: max(0, width - String(number).count)) + String(number)
            let chapters = group.pages.enumerated().compactMap { pageOffset, page in
                starts[page.index].map { ExportItem.ChapterStart(title: $0, pageOffset: pageOffset) }
            }
            return ExportItem(number: number, fileStem: "\(padded) - \(fileNameSafe(group.title))", title: group.title, pages: group.pages, chapters: chapters)
        }
    }

    /// Page index → title of the first table-of-contents entry that starts there.
    static func chapterStarts(of book: Book) -> [Int: String] {
        var starts: [Int: String] = [:]
        for chapter in book.chapters where starts[chapter.firstPage] == nil {
            starts[chapter.firstPage] = chapter.title
        }
        return starts
    }

    /// The title of the chapter a page belongs to: the last start at or before it.
    static func chapterTitle(for pageIndex: Int, starts: [Int: String]) -> String? {
        starts.filter { $0.key <= pageIndex }.max { $0.key < $1.key }?.value
    }

    private static func selectedPages(of book: Book, selection: ExportSelection) throws(ExportError) -> [Page] {
        guard !book.pages.isEmpty else { throw .invalidSelection("'\(book.metadata.title)' has no pages to export.") }
        switch selection {
        case .all:
            return book.pages
        case let .pages(range):
            guard range.lowerBound >= 1, range.upperBound <= book.pages.count else {
                throw .invalidSelection("Pages \(range.lowerBound)-\(range.upperBound) are outside the book: it has pages 1-\(book.pages.count).")
            }
            return Array(book.pages[(range.lowerBound - 1)...(range.upperBound - 1)])
        case let .chapters(range):
            guard range.lowerBound >= 1, range.upperBound <= book.chapters.count else {
                let count = book.chapters.count
                throw .invalidSelection(count == 0
                    ? "'\(book.metadata.title)' has no chapters; choose pages with --pages."
                    : "Chapters \(range.lowerBound)-\(range.upperBound) are outside the book: it has chapters 1-\(count).")
            }
            let pageCount = book.pages.count
            let first = book.chapters[range.lowerBound - 1].firstPage
            guard (1...pageCount).contains(first) else {
                throw .invalidSelection("Chapter \(range.lowerBound) starts outside the book's pages (1-\(pageCount)); choose pages with --pages.")
            }
            let next = range.upperBound < book.chapters.count ? book.chapters[range.upperBound].firstPage - 1 : pageCount
            let end = min(max(next, first), pageCount)
            return Array(book.pages[(first - 1)...(end - 1)])
        }
    }

    /// A title made safe for a file name: no slashes or control characters, at most 80 characters.
    static func fileNameSafe(_ title: String) -> String {
        let cleaned = title.unicodeScalars.map { scalar -> String in
            if scalar == "/" || scalar == "\\" || scalar == ":" { return "-" }
            if scalar.properties.generalCategory == .control || scalar == "\n" { return " " }
            return String(scalar)
        }.joined()
        let folded = cleaned.split(whereSeparator: { $0 == " " }).joined(separator: " ")
        let trimmed = folded.hasPrefix(".") ? String(folded.drop(while: { $0 == "." })) : folded
        // "Chapter 2. The Carpet-Bag." gives "Chapter 2. The Carpet-Bag", not "….mp3" after "..".
        var result = String(trimmed.prefix(80)).trimmingWhitespace
        while result.hasSuffix(".") { result.removeLast() }
        result = result.trimmingWhitespace
        return result.isEmpty ? "untitled" : result
    }
}
