import Foundation
import Testing
@testable import NarrateDomain

extension ExportPlannerTests {
    // MARK: - Chapters sharing a page

    /// Four pages; chapters 2, 3 and 4 all start on page 2, at their own paragraph, as in a book with print
    /// pages (children's literature: three chapters on page 174).
    ///
    ///     page 2: "End of one.¶¶Two begins.¶¶Three begins.¶¶Four begins."
    ///              0           13           26             41
    static let sharedPage: Book = {
        let pages = [
            Page(index: 1, label: "173", text: "One begins."),
            Page(index: 2, label: "174", text: "End of one.\n\nTwo begins.\n\nThree begins.\n\nFour begins."),
            Page(index: 3, label: "175", text: "Four goes on."),
            Page(index: 4, label: "176", text: "Five begins."),
        ]
        let chapters = [
            Chapter(title: "One", firstPage: 1),
            Chapter(title: "Two", firstPage: 2, textOffset: 13),
            Chapter(title: "Three", firstPage: 2, textOffset: 26),
            Chapter(title: "Four", firstPage: 2, textOffset: 41),
            Chapter(title: "Five", firstPage: 4),
        ]
        return Book(metadata: BookMetadata(title: "Shared"), format: .epub, chapters: chapters, pages: pages)
    }()

    @Test("Chapters that start on one page each get their own file, cut at their text position")
    func chaptersSharingAPageGetTheirOwnFiles() throws {
        // When
        let items = try ExportPlanner.plan(book: Self.sharedPage, split: .chapter, selection: .all)

        // Then
        #expect(items.map(\.title) == ["One", "Two", "Three", "Four", "Five"])
        #expect(items.map { $0.pages.map(\.text) } == [
            ["One begins.", "End of one."],
            ["Two begins."],
            ["Three begins."],
            ["Four begins.", "Four goes on."],
            ["Five begins."],
        ])
        #expect(items.map { $0.pages.map(\.label) } == [["173", "174"], ["174"], ["174"], ["174", "175"], ["176"]])
        #expect(items.map(\.chapters.count) == [1, 1, 1, 1, 1])
    }

    @Test("A chapter selection holds each selected chapter whole and nothing of the next", arguments: [
        (2...2, [["Two begins."]]),
        (3...3, [["Three begins."]]),
        (1...2, [["One begins.", "End of one."], ["Two begins."]]),
        (2...4, [["Two begins."], ["Three begins."], ["Four begins.", "Four goes on."]]),
        (4...5, [["Four begins.", "Four goes on."], ["Five begins."]]),
    ])
    func chapterSelectionOnASharedPage(range: ClosedRange<Int>, expected: [[String]]) throws {
        // When
        let items = try ExportPlanner.plan(book: Self.sharedPage, split: .chapter, selection: .chapters(range))

        // Then
        #expect(items.count == range.count)
        #expect(items.map { $0.pages.map(\.text) } == expected)
        #expect(items.map(\.title) == range.map { Self.sharedPage.chapters[$0 - 1].title })
    }

    @Test("A book or page split keeps the shared page in one file, cut into pieces where its chapters start")
    func sharedPageInOneFile() throws {
        // When
        let book = try ExportPlanner.plan(book: Self.sharedPage, split: .book, selection: .all)
        let pages = try ExportPlanner.plan(book: Self.sharedPage, split: .page, selection: .all)

        // Then
        #expect(book.count == 1)
        #expect(book[0].pages.map(\.text) == ["One begins.", "End of one.", "Two begins.", "Three begins.", "Four begins.", "Four goes on.", "Five begins."])
        #expect(book[0].chapters == [
            ExportItem.ChapterStart(title: "One", pageOffset: 0),
            ExportItem.ChapterStart(title: "Two", pageOffset: 2),
            ExportItem.ChapterStart(title: "Three", pageOffset: 3),
            ExportItem.ChapterStart(title: "Four", pageOffset: 4),
            ExportItem.ChapterStart(title: "Five", pageOffset: 6),
        ])
        #expect(pages.map(\.fileStem) == ["001 - One - page 173", "002 - One - page 174", "003 - Four - page 175", "004 - Five - page 176"])
        #expect(pages[1].pages.map(\.text).joined(separator: "\n\n") == Self.sharedPage.pages[1].text)
        #expect(pages[1].chapters.map(\.title) == ["Two", "Three", "Four"])
    }

    @Test("Chunks of a shared page know which piece they belong to; their offsets index the file's text")
    func chunksOfPieces() throws {
        // Given
        let items = try ExportPlanner.plan(book: Self.sharedPage, split: .book, selection: .all)

        // When
        let chunks = ExportChunker.chunks(of: items)

        // Then
        let text = Array(ExportChunker.text(of: items[0]).unicodeScalars)
        #expect(chunks.map(\.pageOffset) == [0, 1, 2, 3, 4, 5, 6])
        #expect(chunks.map(\.pageLabel) == ["173", "174", "174", "174", "174", "175", "176"])
        for chunk in chunks {
            let scalars = Array(chunk.text.unicodeScalars)
            #expect(Array(text[chunk.textOffset..<(chunk.textOffset + scalars.count)]) == scalars)
        }
    }

    @Test("A chapter stored without a text offset, or one past its page's end, starts as it did: at the top of its page, or with the next piece")
    func offsetsOutsideThePage() throws {
        // Given a chapter at offset 0 of the shared page and one past the end of page 1
        let pages = [Page(index: 1, label: "1", text: "Alpha."), Page(index: 2, label: "2", text: "Beta.")]
        let chapters = [Chapter(title: "A", firstPage: 1), Chapter(title: "B", firstPage: 1, textOffset: 99)]
        let book = Book(metadata: BookMetadata(title: "Edge"), format: .epub, chapters: chapters, pages: pages)

        // When
        let items = try ExportPlanner.plan(book: book, split: .chapter, selection: .all)

        // Then
        #expect(items.map(\.title) == ["A", "B"])
        #expect(items.map { $0.pages.map(\.text) } == [["Alpha."], ["Beta."]])
    }

    @Test("A chapter decoded from JSON stored before the text offset starts at the top of its page")
    func chapterDecodesWithoutTextOffset() throws {
        // Given
        let json = #"{"title":"Old","depth":1,"firstPage":7}"#

        // When
        let chapter = try JSONDecoder().decode(Chapter.self, from: Data(json.utf8))

        // Then
        #expect(chapter == Chapter(title: "Old", depth: 1, firstPage: 7, textOffset: 0))
    }
}
