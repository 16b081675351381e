import Foundation
import Testing

@testable import NarrateDomain

@Suite struct BookSummaryTests {
    @Test("Given a library book, when it is summarized, then the summary has its id, metadata, counts and date")
    func readsTheBook() {
        // Given
        let book = LibraryBook.stub(id: 42, title: "Fairy Tales", pages: [.stub(index: 1), .stub(index: 2)], chapters: [Chapter(title: "One", firstPage: 1)])

        // When
        let summary = BookSummary(book)

        // Then
        #expect(summary.id == BookID(rawValue: 42))
        #expect(summary.title == "Fairy Tales")
        #expect(summary.authors == ["A. Writer"])
        #expect(summary.language == nil)
        #expect(summary.format == .plainText)
        #expect(summary.pageCount == 2)
        #expect(summary.chapterCount == 1)
        #expect(summary.progress == nil)
        #expect(summary.progressPageLabel == nil)
        #expect(summary.dateAdded == LibraryBook.stubDate)
    }

    @Test("Given progress on a page with a printed label, when the book is summarized, then the summary names that label")
    func progressLabel() {
        // Given
        let progress = ReadingProgress(pageIndex: 2, updatedAt: Date(timeIntervalSince1970: 1_700_000_123))
        let book = LibraryBook.stub(pages: [.stub(index: 1, label: "i"), .stub(index: 2, label: "1")], progress: progress)

        // When
        let summary = BookSummary(book)

        // Then
        #expect(summary.progress == progress)
        #expect(summary.progressPageLabel == "1")
    }

    @Test("Given progress past the book's last page, when the book is summarized, then the progress stays and has no label")
    func progressWithoutPage() {
        // Given
        let book = LibraryBook.stub(pages: [.stub(index: 1)], progress: ReadingProgress(pageIndex: 9, updatedAt: LibraryBook.stubDate))

        // When
        let summary = BookSummary(book)

        // Then
        #expect(summary.progress?.pageIndex == 9)
        #expect(summary.progressPageLabel == nil)
    }
}
