import Foundation
import NarrateKit
import Testing
@testable import NarrateServer

/// The library's JSON as the service sends it: the keys and values clients read (the order of
/// keys is not fixed, so the documents are compared parsed).
@Suite struct BookResponsesTests {
    static let fairyTales = LibraryBook(
        id: BookID(rawValue: 42),
        book: Book(
            metadata: BookMetadata(
                title: "Fairy Tales", authors: ["Hans Christian Andersen", "Jean Hersholt"], language: "en", identifier: "urn:x",
                publisher: "Gutenberg", date: "1900", bookDescription: "Tales.", credits: "Produced by someone"
            ),
            format: .plainText,
            chapters: [Chapter(title: "One", firstPage: 1), Chapter(title: "Two", depth: 1, firstPage: 2)],
            pages: [Page(index: 1, label: "i", chapterIndex: 0, text: "a b c"), Page(index: 2, label: "1", chapterIndex: 1, text: "d e"), Page(index: 3, label: "2", text: "f")],
            skipped: [SkippedMatter(kind: .gutenbergBoilerplate, title: "Header", words: 120), SkippedMatter(kind: .notes, title: "Notes", words: 30)]
        ),
        contentHash: "abc", sourcePath: "/books/fairy.txt", dateAdded: Date(timeIntervalSince1970: 1_700_000_000),
        progress: ReadingProgress(pageIndex: 2, updatedAt: Date(timeIntervalSince1970: 1_700_000_123))
    )

    /// Progress on a page the book does not have, no language, no authors.
    static let untitled = LibraryBook(
        id: BookID(rawValue: 7), book: Book(metadata: BookMetadata(title: "Untitled"), format: .markdown, pages: [Page(index: 1, label: "1", text: "x")]),
        contentHash: "def", sourcePath: "/books/u.md", dateAdded: Date(timeIntervalSince1970: 1_600_000_000),
        progress: ReadingProgress(pageIndex: 9, updatedAt: Date(timeIntervalSince1970: 1_600_000_001))
    )

    static let unread = LibraryBook(
        id: BookID(rawValue: 1), book: Book(metadata: BookMetadata(title: "E", authors: ["A"]), format: .epub, pages: []),
        contentHash: "g", sourcePath: "/b/e.epub", dateAdded: Date(timeIntervalSince1970: 0)
    )

    @Test("Given a started book, when GET /v1/books lists it, then it has the summary's snake_case keys, its progress with the page label")
    func listedBook() throws {
        try expect(BookListResponse(books: [BookSummaryResponse(summary: BookSummary(Self.fairyTales))]), equals: """
            {"books":[{"added":"2023-11-14T22:13:20Z","authors":["Hans Christian Andersen","Jean Hersholt"],"chapter_count":2,\
            "format":"plainText","id":"42","language":"en","page_count":3,"progress":{"page":"1","page_index":2,\
            "updated":"2023-11-14T22:15:23Z"},"title":"Fairy Tales"}]}
            """)
    }

    @Test("Given books with and without progress, when summarized, then progress without a page has no label and a book not started has none")
    func summaries() throws {
        try expect(BookSummaryResponse(summary: BookSummary(Self.untitled)), equals: """
            {"added":"2020-09-13T12:26:40Z","authors":[],"chapter_count":0,"format":"markdown","id":"7","page_count":1,\
            "progress":{"page_index":9,"updated":"2020-09-13T12:26:41Z"},"title":"Untitled"}
            """)
        try expect(BookSummaryResponse(summary: BookSummary(Self.unread)), equals: """
            {"added":"1970-01-01T00:00:00Z","authors":["A"],"chapter_count":0,"format":"epub","id":"1","page_count":0,"title":"E"}
            """)
    }

    @Test("Given a book, when GET /v1/books/{id} shows it, then it has the summary and its publisher, date, description and skipped words")
    func detail() throws {
        try expect(BookDetailResponse(Self.fairyTales), equals: """
            {"added":"2023-11-14T22:13:20Z","authors":["Hans Christian Andersen","Jean Hersholt"],"chapter_count":2,"date":"1900",\
            "description":"Tales.","format":"plainText","id":"42","language":"en","page_count":3,"progress":{"page":"1",\
            "page_index":2,"updated":"2023-11-14T22:15:23Z"},"publisher":"Gutenberg","skipped_words":150,"title":"Fairy Tales"}
            """)
        try expect(BookDetailResponse(Self.unread), equals: """
            {"added":"1970-01-01T00:00:00Z","authors":["A"],"chapter_count":0,"format":"epub","id":"1","page_count":0,\
            "skipped_words":0,"title":"E"}
            """)
    }

    /// Encodes as Hummingbird's default response encoder does (ISO 8601 dates) and compares parsed.
    private func expect(_ value: some Encodable, equals expected: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let encoded = try encoder.encode(value)
        let actual = try JSONSerialization.jsonObject(with: encoded) as? NSDictionary
        let wanted = try JSONSerialization.jsonObject(with: Data(expected.utf8)) as? NSDictionary
        #expect(actual != nil && actual == wanted, "\(String(decoding: encoded, as: UTF8.self))", sourceLocation: sourceLocation)
    }
}
