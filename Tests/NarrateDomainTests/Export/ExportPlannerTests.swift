import Foundation
import Testing

@testable import NarrateDomain

/// Moby-Dick in six pages and three chapters of two pages each; the first two pages have
/// roman labels.
enum ExportFixtures {
    static let labels = ["i", "ii", "1", "2", "3", "4"]
    static let pages = labels.enumerated().map { offset, label in
        Page(index: offset + 1, label: label, text: "Text of page \(label). It has two sentences.")
    }
    static let chapters = [
        Chapter(title: "Loomings", firstPage: 1),
        Chapter(title: "The Carpet-Bag", firstPage: 3),
        Chapter(title: "The Spouter-Inn", firstPage: 5),
    ]
    static let book = Book(metadata: BookMetadata(title: "Moby-Dick"), format: .epub, chapters: chapters, pages: pages)

    static func book(pageCount: Int, chapters: [Chapter] = [], title: String = "Moby-Dick") -> Book {
        let pages = (0..<pageCount).map { Page(index: $0 + 1, label: String($0 + 1), text: "Page \($0 + 1).") }
        return Book(metadata: BookMetadata(title: title), format: .plainText, chapters: chapters, pages: pages)
    }
}

@Suite struct ExportPlannerTests {
    // MARK: - Chapter split

    @Test("A chapter split makes one file per chapter, from its first page to the next chapter's")
    func chapterSplitFollowsChapters() throws {
        // When
        let items = try ExportPlanner.plan(book: ExportFixtures.book, split: .chapter, selection: .all)

        // Then
        #expect(items.map(\.number) == [1, 2, 3])
        #expect(items.map(\.fileStem) == ["001 - Loomings", "002 - The Carpet-Bag", "003 - The Spouter-Inn"])
        #expect(items.map(\.title) == ["Loomings", "The Carpet-Bag", "The Spouter-Inn"])
        #expect(items.map { $0.pages.map(\.index) } == [[1, 2], [3, 4], [5, 6]])
        #expect(items.map(\.chapters) == ExportFixtures.chapters.map { [ExportItem.ChapterStart(title: $0.title, pageOffset: 0)] })
    }

    @Test("Pages before the first chapter make a file titled after the book")
    func frontMatterIsTitledAfterBook() throws {
        // Given
        let book = ExportFixtures.book(pageCount: 4, chapters: [Chapter(title: "Chapter One", firstPage: 3)])

        // When
        let items = try ExportPlanner.plan(book: book, split: .chapter, selection: .all)

        // Then
        #expect(items.map(\.fileStem) == ["001 - Moby-Dick", "002 - Chapter One"])
        #expect(items.map { $0.pages.map(\.index) } == [[1, 2], [3, 4]])
        #expect(items[0].chapters.isEmpty)
    }

    @Test("A book without chapters makes one file with the book's title")
    func noChaptersMakesOneFile() throws {
        // When
        let items = try ExportPlanner.plan(book: ExportFixtures.book(pageCount: 3), split: .chapter, selection: .all)

        // Then
        #expect(items.map(\.fileStem) == ["001 - Moby-Dick"])
        #expect(items[0].pages.count == 3)
    }

    @Test("Table-of-contents entries that start on the same page make one file, named after the first")
    func nestedEntriesOnOnePageShareAFile() throws {
        // Given
        let chapters = [Chapter(title: "Part One", firstPage: 1), Chapter(title: "Chapter 1", depth: 1, firstPage: 1), Chapter(title: "Chapter 2", depth: 1, firstPage: 3)]
        let book = ExportFixtures.book(pageCount: 4, chapters: chapters)

        // When
        let items = try ExportPlanner.plan(book: book, split: .chapter, selection: .all)

        // Then
        #expect(items.map(\.fileStem) == ["001 - Part One", "002 - Chapter 2"])
    }

    @Test("File names sort in reading order", arguments: [9, 12, 150])
    func namesSortInReadingOrder(chapterCount: Int) throws {
        // Given
        let chapters = (1...chapterCount).map { Chapter(title: "Chapter \($0)", firstPage: $0) }
        let book = ExportFixtures.book(pageCount: chapterCount, chapters: chapters)

        // When
        let items = try ExportPlanner.plan(book: book, split: .chapter, selection: .all)

        // Then
        let stems = items.map(\.fileStem)
        #expect(stems.count == chapterCount)
        #expect(stems.sorted() == stems)
        #expect(stems.first == "001 - Chapter 1")
    }

    @Test("Numbers are padded to three digits up to 999 files, and widen for 1000 or more", arguments: [(999, "001", "999"), (1_000, "0001", "1000"), (10_000, "00001", "10000")])
    func paddingWidensForManyFiles(pageCount: Int, first: String, last: String) throws {
        // Given
        let book = ExportFixtures.book(pageCount: pageCount)

        // When
        let items = try ExportPlanner.plan(book: book, split: .page, selection: .all)

        // Then
        let stems = items.map(\.fileStem)
        #expect(stems.first == "\(first) - page 1")
        #expect(stems.last == "\(last) - page \(pageCount)")
        #expect(stems.sorted() == stems)
    }

    @Test("Characters a file name cannot hold are replaced, whitespace folded, leading dots dropped", arguments: [
        ("AC/DC: Live\\Loud", "AC-DC- Live-Loud"),
        ("Line one\nLine\ttwo\r\nthree", "Line one Line two three"),
        ("  Spaced    out  ", "Spaced out"),
        ("...Hidden", "Hidden"),
        ("", "untitled"),
        ("...", "untitled"),
        (String(repeating: "x", count: 100), String(repeating: "x", count: 80)),
    ])
    func unsafeCharactersAreReplaced(title: String, safe: String) throws {
        // Given
        let book = ExportFixtures.book(pageCount: 2, chapters: [Chapter(title: title, firstPage: 1)])

        // When
        let items = try ExportPlanner.plan(book: book, split: .chapter, selection: .all)

        // Then
        #expect(items.map(\.fileStem) == ["001 - \(safe)"])
        #expect(items[0].title == title)
        #expect(!items[0].fileStem.contains("/"))
    }

    // MARK: - Page split

    @Test("A page split makes one file per page, named after its chapter and page label")
    func pageSplitNamesCarryChapterAndLabel() throws {
        // When
        let items = try ExportPlanner.plan(book: ExportFixtures.book, split: .page, selection: .all)

        // Then
        #expect(items.map(\.fileStem) == [
            "001 - Loomings - page i",
            "002 - Loomings - page ii",
            "003 - The Carpet-Bag - page 1",
            "004 - The Carpet-Bag - page 2",
            "005 - The Spouter-Inn - page 3",
            "006 - The Spouter-Inn - page 4",
        ])
        #expect(items.map { $0.pages.map(\.index) } == (1...6).map { [$0] })
        #expect(items.map(\.chapters.count) == [1, 0, 1, 0, 1, 0])
        #expect(items[2].chapters == [ExportItem.ChapterStart(title: "The Carpet-Bag", pageOffset: 0)])
    }

    @Test("A page before any chapter is named after its label only")
    func pageBeforeChaptersHasLabelOnly() throws {
        // Given
        let book = ExportFixtures.book(pageCount: 2, chapters: [Chapter(title: "One", firstPage: 2)])

        // When
        let items = try ExportPlanner.plan(book: book, split: .page, selection: .all)

        // Then
        #expect(items.map(\.fileStem) == ["001 - page 1", "002 - One - page 2"])
    }

    // MARK: - Book split

    @Test("A book split makes one file of every page, with each chapter's start in it")
    func bookSplitMakesOneFile() throws {
        // When
        let items = try ExportPlanner.plan(book: ExportFixtures.book, split: .book, selection: .all)

        // Then
        #expect(items.count == 1)
        #expect(items[0].number == 1)
        #expect(items[0].fileStem == "001 - Moby-Dick")
        #expect(items[0].title == "Moby-Dick")
        #expect(items[0].pages == ExportFixtures.pages)
        #expect(items[0].chapters == [
            ExportItem.ChapterStart(title: "Loomings", pageOffset: 0),
            ExportItem.ChapterStart(title: "The Carpet-Bag", pageOffset: 2),
            ExportItem.ChapterStart(title: "The Spouter-Inn", pageOffset: 4),
        ])
    }

    // MARK: - Selections

    @Test("A page selection exports those pages, numbered from 1, a file starting mid-chapter keeps its chapter's title")
    func pageSelection() throws {
        // When
        let items = try ExportPlanner.plan(book: ExportFixtures.book, split: .chapter, selection: .pages(2...4))
        let whole = try ExportPlanner.plan(book: ExportFixtures.book, split: .book, selection: .pages(2...5))

        // Then
        #expect(items.map(\.fileStem) == ["001 - Loomings", "002 - The Carpet-Bag"])
        #expect(items.map { $0.pages.map(\.index) } == [[2], [3, 4]])
        #expect(items[0].chapters.isEmpty)
        #expect(whole[0].chapters == [ExportItem.ChapterStart(title: "The Carpet-Bag", pageOffset: 1), ExportItem.ChapterStart(title: "The Spouter-Inn", pageOffset: 3)])
    }

    @Test("A chapter selection exports from the first chapter's first page to the page before the next chapter", arguments: [
        (2...2, [3, 4]),
        (1...2, [1, 2, 3, 4]),
        (2...3, [3, 4, 5, 6]),
        (3...3, [5, 6]),
    ])
    func chapterSelection(range: ClosedRange<Int>, expectedPages: [Int]) throws {
        // When
        let items = try ExportPlanner.plan(book: ExportFixtures.book, split: .book, selection: .chapters(range))

        // Then
        #expect(items.count == 1)
        #expect(items[0].pages.map(\.index) == expectedPages)
    }

    @Test("A page range outside the book throws pagesOutsideBook naming the book's pages", arguments: [0...2, 5...7, 7...9])
    func pageRangeOutsideBookThrows(range: ClosedRange<Int>) throws {
        // When / Then
        #expect(throws: ExportError.pagesOutsideBook(first: range.lowerBound, last: range.upperBound, pageCount: 6)) {
            _ = try ExportPlanner.plan(book: ExportFixtures.book, split: .page, selection: .pages(range))
        }
    }

    @Test("A chapter range outside the book throws chaptersOutsideBook naming the book's chapters", arguments: [0...1, 3...4])
    func chapterRangeOutsideBookThrows(range: ClosedRange<Int>) throws {
        // When / Then
        #expect(throws: ExportError.chaptersOutsideBook(first: range.lowerBound, last: range.upperBound, chapterCount: 3)) {
            _ = try ExportPlanner.plan(book: ExportFixtures.book, split: .chapter, selection: .chapters(range))
        }
    }

    @Test("A chapter that starts after the last page is refused; the chapter before it runs to the end of the book")
    func chapterStartingAfterLastPage() throws {
        // Given a book whose third entry points past its six pages (GetTableOfContentsUseCase
        // allows such entries)
        let pages = (1...6).map { Page(index: $0, label: String($0), text: "Page \($0).") }
        let chapters = [Chapter(title: "One", firstPage: 1), Chapter(title: "Two", firstPage: 3), Chapter(title: "Notes", firstPage: 9)]
        let book = Book(metadata: BookMetadata(title: "Short"), format: .plainText, chapters: chapters, pages: pages)

        // When
        let second = try ExportPlanner.plan(book: book, split: .chapter, selection: .chapters(2...2))

        // Then
        #expect(second.flatMap(\.pages).map(\.index) == [3, 4, 5, 6])
        #expect(throws: ExportError.chapterOutsidePages(chapter: 3, pageCount: 6)) {
            _ = try ExportPlanner.plan(book: book, split: .chapter, selection: .chapters(3...3))
        }
    }

    @Test("A chapter selection in a book without chapters throws noChapters, whose message points to pages without naming a flag")
    func chapterSelectionWithoutChaptersThrows() throws {
        // When / Then
        #expect(throws: ExportError.noChapters(title: "Moby-Dick")) {
            _ = try ExportPlanner.plan(book: ExportFixtures.book(pageCount: 3), split: .chapter, selection: .chapters(1...1))
        }
        #expect(ExportError.noChapters(title: "Moby-Dick").description == "'Moby-Dick' has no chapters; choose pages instead.")
    }

    @Test("A book without pages throws noPages", arguments: [ExportSplit.page, .chapter, .book])
    func bookWithoutPagesThrows(split: ExportSplit) throws {
        // Given
        let book = ExportFixtures.book(pageCount: 0, title: "Blank")

        // When / Then
        #expect(throws: ExportError.noPages(title: "Blank")) {
            _ = try ExportPlanner.plan(book: book, split: split, selection: .all)
        }
    }

}
