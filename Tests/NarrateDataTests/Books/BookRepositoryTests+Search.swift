import Foundation
import GRDB
@testable import NarrateData
import NarrateDomain
import Testing

extension BookRepositoryTests {
    // MARK: - Search

    @Test("search finds a book by its title, with no page")
    func searchByTitle() async throws {
        // Given
        let saved = try await sut.saveBook(.stub(), contentHash: "1", sourcePath: "a.epub")

        // When
        let results = try await sut.searchBooks(query: "moby")

        // Then
        #expect(results == [
            BookSearchResult(bookID: saved.id, title: "Moby-Dick", authors: ["Herman Melville"], pageIndex: nil, snippet: "Moby-Dick"),
        ])
    }

    @Test("search finds a book by an author")
    func searchByAuthor() async throws {
        // Given
        let saved = try await sut.saveBook(.stub(authors: ["Jane Doe", "Herman Melville"]), contentHash: "1", sourcePath: "a.epub")

        // When
        let results = try await sut.searchBooks(query: "Melville")

        // Then
        #expect(results.map(\.bookID) == [saved.id])
        #expect(results.first?.pageIndex == nil)
        #expect(results.first?.authors == ["Jane Doe", "Herman Melville"])
        #expect(results.first?.snippet.contains("Melville") == true)
    }

    @Test("search finds a word in the text, with the page it is on")
    func searchByPageText() async throws {
        // Given
        let saved = try await sut.saveBook(.stub(), contentHash: "1", sourcePath: "a.epub")

        // When
        let results = try await sut.searchBooks(query: "pale usher")

        // Then
        #expect(results.count == 1)
        #expect(results.first?.bookID == saved.id)
        #expect(results.first?.pageIndex == 2)
        #expect(results.first?.snippet.contains("Usher") == true)
    }

    @Test("search ignores case and diacritics")
    func searchIgnoresCaseAndDiacritics() async throws {
        // Given
        _ = try await sut.saveBook(.stub(pages: ["Nothing here.", "They met at the Café Müller."]), contentHash: "1", sourcePath: "a.epub")

        // When / Then
        #expect(try await sut.searchBooks(query: "CAFE muller").map(\.pageIndex) == [2])
        #expect(try await sut.searchBooks(query: "ISHMAEL").isEmpty)
        #expect(try await sut.searchBooks(query: "mOBy").count == 1)
    }

    @Test("search gives one result per book, on its best page")
    func searchOneResultPerBook() async throws {
        // Given
        let saved = try await sut.saveBook(
            .stub(pages: ["The sea, and more words around the sea.", "Sea sea sea.", "A sea."]),
            contentHash: "1", sourcePath: "a.epub")

        // When
        let results = try await sut.searchBooks(query: "sea")

        // Then
        #expect(results.map(\.bookID) == [saved.id])
        #expect(results.first?.pageIndex == 2)
    }

    @Test("search gives up to the asked number of pages per book, best first, and counts every match")
    func searchSeveralHitsPerBook() async throws {
        // Given
        let saved = try await sut.saveBook(
            .stub(pages: [
                "The sea, and more words around the sea.", "Sea sea sea.", "A sea.", "Nothing here.",
                "A long page of many words with the sea only once in it, somewhere far from the start.",
            ]),
            contentHash: "1", sourcePath: "a.epub")

        // When
        let results = try await sut.searchBooks(query: "sea", hitsPerBook: 3)

        // Then
        #expect(results.map(\.bookID) == [saved.id, saved.id, saved.id])
        #expect(results.first?.pageIndex == 2)
        #expect(Set(results.compactMap(\.pageIndex)) == [1, 2, 3])
        #expect(results.allSatisfy { $0.bookMatchCount == 4 })
        #expect(results.allSatisfy { $0.snippet.lowercased().contains("sea") })
    }

    @Test("search without a limit gives every matching page, then the title and authors row")
    func searchEveryHit() async throws {
        // Given
        _ = try await sut.saveBook(
            .stub(title: "The Sea", pages: ["The sea, and more words around the sea.", "Sea sea sea.", "Nothing here.", "A sea."]),
            contentHash: "1", sourcePath: "a.epub")

        // When
        let results = try await sut.searchBooks(query: "sea", hitsPerBook: nil)

        // Then
        #expect(results.count == 4)
        #expect(Set(results.compactMap(\.pageIndex)) == [1, 2, 4])
        #expect(results.last?.pageIndex == nil)
        #expect(results.allSatisfy { $0.bookMatchCount == 4 })
    }

    @Test("a book's hits stay together, books in the order of their best hit")
    func searchGroupsHitsByBook() async throws {
        // Given
        let textOnly = try await sut.saveBook(
            .stub(title: "Sea Stories", pages: ["A whale.", "Another whale here.", "No more."]),
            contentHash: "1", sourcePath: "a.epub")
        let titled = try await sut.saveBook(
            .stub(title: "The Whale", pages: ["The whale again.", "Nothing to see."]),
            contentHash: "2", sourcePath: "b.epub")

        // When
        let results = try await sut.searchBooks(query: "whale", hitsPerBook: 5)

        // Then
        #expect(results.map(\.bookID) == [titled.id, titled.id, textOnly.id, textOnly.id])
        #expect(results.map(\.bookMatchCount) == [2, 2, 2, 2])
        #expect(Set(results.filter { $0.bookID == textOnly.id }.compactMap(\.pageIndex)) == [1, 2])
    }

    @Test("search ranks a title match above a match in the text")
    func searchRanksTitleFirst() async throws {
        // Given
        let textOnly = try await sut.saveBook(.stub(title: "Sea Stories"), contentHash: "1", sourcePath: "a.epub")
        let titled = try await sut.saveBook(.stub(title: "The Whale", pages: ["Nothing to see."]), contentHash: "2", sourcePath: "b.epub")

        // When
        let results = try await sut.searchBooks(query: "whale")

        // Then
        #expect(results.map(\.bookID) == [titled.id, textOnly.id])
        #expect(results.map(\.pageIndex) == [nil, 3])
    }

    @Test("search treats operators and quotes as plain words", arguments: [
        "\"", "\"foo", "AND", "AND(", "OR NOT", "*", "whale*", "NEAR(", "NEAR(call me, 2)",
        "title:moby", "^call", "-", "(", ")", "{title}: x", "'; DROP TABLE book; --", "\u{0}",
        "whale\u{0}", "wh\u{0}ale\"", "\u{1F}whale",
    ])
    func searchSurvivesHostileQueries(query: String) async throws {
        // Given
        _ = try await sut.saveBook(.stub(), contentHash: "1", sourcePath: "a.epub")

        // When
        let results = try await sut.searchBooks(query: query)

        // Then: no error, and the library is intact
        #expect(results.count <= 1)
        #expect(try await sut.getAllBooks().count == 1)
    }

    @Test("search with no words finds nothing", arguments: ["", "   ", "\"", "* * *", "()", "\"\""])
    func searchEmpty(query: String) async throws {
        // Given
        _ = try await sut.saveBook(.stub(), contentHash: "1", sourcePath: "a.epub")

        // When / Then
        #expect(try await sut.searchBooks(query: query).isEmpty)
    }

    @Test("a quoted word still matches: the quotes are not part of the word")
    func searchQuotedWord() async throws {
        // Given
        _ = try await sut.saveBook(.stub(), contentHash: "1", sourcePath: "a.epub")

        // When / Then
        #expect(try await sut.searchBooks(query: "\"whale\"").map(\.pageIndex) == [3])
        #expect(try await sut.searchBooks(query: "whale*").map(\.pageIndex) == [3])
    }
}
