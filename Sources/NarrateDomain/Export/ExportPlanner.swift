/// Cuts a book into the audio files of an export (pure and deterministic).
///
/// A chapter is its own span of text, from its start (a page and an offset into that page's text) to the next
/// chapter's start, even when several chapters start on one page: such a page is cut into pieces, one per span,
/// each an `ExportItem` page with the page's index and label and the text of its span.
public enum ExportPlanner {
    /// A place in a book's text: a 1-based page index and a scalar offset into that page's text.
    struct TextPosition: Comparable, Hashable {
        var page: Int
        var offset: Int

        static func < (lhs: TextPosition, rhs: TextPosition) -> Bool {
            (lhs.page, lhs.offset) < (rhs.page, rhs.offset)
        }
    }

    /// Where chapters start, and their titles in table-of-contents order (several entries can start at one
    /// place: a heading over its children starts where its first child does). `title` names a file starting
    /// there: the first selected entry's.
    struct ChapterMark {
        var position: TextPosition
        var titles: [String]
        var title: String
        /// The 1-based table-of-contents number of the entry `title` comes from.
        var preferredIndex: Int
    }

    /// A piece of one page: the whole page, or the span of it between two chapter starts.
    struct Piece {
        var page: Page
        var start: TextPosition
        /// The chapters starting with this piece (their mark), if any.
        var chapterMark: ChapterMark?
    }

    /// The files for `book`, in reading order.
    /// - Throws: `ExportError.pagesOutsideBook`, `.chaptersOutsideBook`, `.noChapters` or
    ///   `.chapterOutsidePages` for a range outside the book, `.noPages` for a book with no pages,
    ///   `.emptySelection` when the range holds no text.
    public static func plan(book: Book, split: ExportSplit, selection: ExportSelection) throws(ExportError) -> [ExportItem] {
        let selectedChapters: ClosedRange<Int>? = if case let .chapters(range) = selection { range } else { nil }
        let marks = chapterMarks(of: book, preferring: selectedChapters)
        let span = try selectedSpan(of: book, selection: selection, marks: marks)
        let pieces = pieces(of: book, from: span.lowerBound, to: span.upperBound, marks: marks)
        guard !pieces.isEmpty else {
            throw .emptySelection(title: book.metadata.title)
        }
        var groups: [(title: String, pieces: [Piece])] = []
        switch split {
        case .book:
            groups = [(book.metadata.title, pieces)]
        case .page:
            for piece in pieces {
                if let last = groups.last?.pieces.last, last.page.index == piece.page.index {
                    groups[groups.count - 1].pieces.append(piece)
                } else {
                    let chapter = chapterTitle(at: piece.start, marks: marks)
                    let title = [chapter, "page \(piece.page.label)"].compactMap { $0 }.joined(separator: " - ")
                    groups.append((title, [piece]))
                }
            }
        case .chapter:
            for piece in pieces {
                if piece.chapterMark != nil || groups.isEmpty {
                    let title = piece.chapterMark?.title ?? chapterTitle(at: piece.start, marks: marks) ?? book.metadata.title
                    groups.append((title, [piece]))
                } else {
                    groups[groups.count - 1].pieces.append(piece)
                }
            }
        }
        let width = max(3, String(groups.count).count)
        return groups.enumerated().map { offset, group in
            let number = offset + 1
            let padded = String(repeating: "0", count: max(0, width - String(number).count)) + String(number)
            let chapters = group.pieces.enumerated().flatMap { pageOffset, piece in
                (piece.chapterMark?.titles ?? []).map { ExportItem.ChapterStart(title: $0, pageOffset: pageOffset) }
            }
            return ExportItem(
                number: number, fileStem: "\(padded) - \(FileName.readable(group.title))", title: group.title,
                pages: group.pieces.map(\.page), chapters: chapters
            )
        }
    }

    /// The chapters' starts in text order, one per position, each on a page of the book and no further than
    /// the end of that page's text. A position's title is its first entry in `preferred` (1-based), else its
    /// first entry.
    static func chapterMarks(of book: Book, preferring preferred: ClosedRange<Int>? = nil) -> [ChapterMark] {
        var marks: [ChapterMark] = []
        var markIndex: [TextPosition: Int] = [:]
        for (index, chapter) in book.chapters.enumerated() {
            guard let position = position(of: chapter, in: book) else { continue }
            let isPreferred = preferred?.contains(index + 1) ?? false
            if let existing = markIndex[position] {
                marks[existing].titles.append(chapter.title)
                if isPreferred, preferred?.contains(marks[existing].preferredIndex) != true {
                    marks[existing].title = chapter.title
                    marks[existing].preferredIndex = index + 1
                }
            } else {
                markIndex[position] = marks.count
                marks.append(ChapterMark(position: position, titles: [chapter.title], title: chapter.title, preferredIndex: index + 1))
            }
        }
        return marks.enumerated().sorted { ($0.element.position, $0.offset) < ($1.element.position, $1.offset) }.map(\.element)
    }

    /// Where `chapter` starts, or nil when its first page is not in the book.
    private static func position(of chapter: Chapter, in book: Book) -> TextPosition? {
        guard book.pages.indices.contains(chapter.firstPage - 1) else { return nil }
        let length = book.pages[chapter.firstPage - 1].text.unicodeScalars.count
        return TextPosition(page: chapter.firstPage, offset: min(max(chapter.textOffset, 0), length))
    }

    /// The title of the chapter in force at `position`: the last start at or before it.
    static func chapterTitle(at position: TextPosition, marks: [ChapterMark]) -> String? {
        marks.last { $0.position <= position }?.title
    }

    /// The selected text, from a position to the position after it (the start of the page after the last).
    private static func selectedSpan(
        of book: Book, selection: ExportSelection, marks: [ChapterMark]
    ) throws(ExportError) -> Range<TextPosition> {
        guard !book.pages.isEmpty else { throw .noPages(title: book.metadata.title) }
        let pageCount = book.pages.count
        let end = TextPosition(page: pageCount + 1, offset: 0)
        switch selection {
        case .all:
            return TextPosition(page: 1, offset: 0)..<end
        case let .pages(range):
            guard range.lowerBound >= 1, range.upperBound <= pageCount else {
                throw .pagesOutsideBook(first: range.lowerBound, last: range.upperBound, pageCount: pageCount)
            }
            return TextPosition(page: range.lowerBound, offset: 0)..<TextPosition(page: range.upperBound + 1, offset: 0)
        case let .chapters(range):
            guard range.lowerBound >= 1, range.upperBound <= book.chapters.count else {
                let count = book.chapters.count
                throw count == 0
                    ? .noChapters(title: book.metadata.title)
                    : .chaptersOutsideBook(first: range.lowerBound, last: range.upperBound, chapterCount: count)
            }
            guard let first = position(of: book.chapters[range.lowerBound - 1], in: book) else {
                throw .chapterOutsidePages(chapter: range.lowerBound, pageCount: pageCount)
            }
            // The selection ends where the next chapter after the last selected one starts, selected or not.
            let last = max(position(of: book.chapters[range.upperBound - 1], in: book) ?? end, first)
            let next = marks.first { $0.position > last }?.position ?? end
            return first..<next
        }
    }

    /// The pages from `start` up to `end`, each cut at every chapter start inside it. A piece of a page with
    /// no text (a chapter starting at the very end of a page) is dropped, its chapter moving to the next piece.
    private static func pieces(of book: Book, from start: TextPosition, to end: TextPosition, marks: [ChapterMark]) -> [Piece] {
        var pieces: [Piece] = []
        var pendingMark: ChapterMark?
        let marksByPosition = Dictionary(marks.map { ($0.position, $0) }, uniquingKeysWith: { first, _ in first })
        let offsetsByPage = Dictionary(grouping: marks.map(\.position), by: \.page).mapValues { $0.map(\.offset) }
        for page in book.pages where page.index >= start.page && page.index <= min(end.page, book.pages.count) {
            let scalars = Array(page.text.unicodeScalars)
            let lower = page.index == start.page ? start.offset : 0
            let upper = page.index == end.page ? min(end.offset, scalars.count) : scalars.count
            // A selection that ends at the top of a page does not hold it.
            guard page.index < end.page || end.offset > 0, lower <= upper else { continue }
            let cuts = [lower] + (offsetsByPage[page.index] ?? []).filter { $0 > lower && $0 < upper } + [upper]
            for (from, to) in zip(cuts, cuts.dropFirst()) {
                let position = TextPosition(page: page.index, offset: from)
                let mark = marksByPosition[position] ?? pendingMark
                var piece = page
                if from > 0 || to < scalars.count {
                    piece.text = trimmed(scalars[from..<to])
                }
                // A whole page stays even without text, as it always has; an empty piece of one does not.
                guard !piece.text.isEmpty || (from == 0 && to == scalars.count) else {
                    pendingMark = mark
                    continue
                }
                pieces.append(Piece(page: piece, start: position, chapterMark: mark))
                pendingMark = nil
            }
            // A chapter starting at the very end of the page starts with the next piece.
            if upper > lower, upper == scalars.count, let mark = marksByPosition[TextPosition(page: page.index, offset: upper)] {
                pendingMark = mark
            }
        }
        return pieces
    }

    /// The scalars as a string without whitespace at either end (the blank line before a chapter start).
    private static func trimmed(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        let isSpace: (Unicode.Scalar) -> Bool = { $0.properties.isWhitespace }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }), let last = scalars.lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[first...last])
        return String(view)
    }
}
