import Foundation
import NarrateKit
import Testing
@testable import narrate

/// The JSON of `list --json`, `show --json` and `search --json`, byte for byte: scripts read it.
@Suite struct ListingJSONTests {
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

    static let bare = LibraryBook(
        id: BookID(rawValue: 1), book: Book(metadata: BookMetadata(title: "E", authors: ["A"]), format: .epub, pages: []),
        contentHash: "g", sourcePath: "/b/e.epub", dateAdded: Date(timeIntervalSince1970: 0)
    )

    @Test("Given a started book with every field, when show --json writes it, then the JSON is the one scripts know")
    func fullListing() throws {
        #expect(try Format.json(BookListing(Self.fairyTales)) == """
            {
              "authors" : [
                "Hans Christian Andersen",
                "Jean Hersholt"
              ],
              "chapterCount" : 2,
              "credits" : "Produced by someone",
              "dateAdded" : "2023-11-14T22:13:20Z",
              "format" : "txt",
              "id" : 42,
              "language" : "en",
              "pageCount" : 3,
              "progressPage" : 2,
              "skipped" : [
                {
                  "kind" : "gutenberg",
                  "title" : "Header",
                  "words" : 120
                },
                {
                  "kind" : "notes",
                  "title" : "Notes",
                  "words" : 30
                }
              ],
              "sourcePath" : "/books/fairy.txt",
              "title" : "Fairy Tales"
            }
            """)
    }

    @Test("Given a book with no language, progress or credits, when show --json writes it, then those keys are left out")
    func bareListing() throws {
        #expect(try Format.json(BookListing(Self.bare)) == """
            {
              "authors" : [
                "A"
              ],
              "chapterCount" : 0,
              "dateAdded" : "1970-01-01T00:00:00Z",
              "format" : "epub",
              "id" : 1,
              "pageCount" : 0,
              "skipped" : [

              ],
              "sourcePath" : "/b/e.epub",
              "title" : "E"
            }
            """)
    }

    @Test("Given search hits in the text and in the title, when search --json writes them, then the JSON is the one scripts know")
    func searchListing() throws {
        let hits = [
            BookSearchResult(bookID: BookID(rawValue: 3), title: "T", authors: ["X", "Y"], pageIndex: 4, snippet: "a «b» c", bookMatchCount: 5),
            BookSearchResult(bookID: BookID(rawValue: 3), title: "T", authors: [], pageIndex: nil, snippet: "s"),
        ]
        #expect(try Format.json(hits.map(SearchListing.init)) == """
            [
              {
                "authors" : [
                  "X",
                  "Y"
                ],
                "bookMatchCount" : 5,
                "id" : 3,
                "pageIndex" : 4,
                "snippet" : "a «b» c",
                "title" : "T"
              },
              {
                "authors" : [

                ],
                "bookMatchCount" : 1,
                "id" : 3,
                "snippet" : "s",
                "title" : "T"
              }
            ]
            """)
    }
}
