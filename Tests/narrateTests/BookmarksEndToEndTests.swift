import Foundation
import Testing

/// `narrate bookmarks`: listing, adding and removing a book's bookmarks, as the listening room
/// keeps them in the same library, and `narrate next` going on from the progress all the same.
@Suite("Bookmarks, end to end")
struct BookmarksEndToEndTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    private func narrate(_ arguments: [String]) async throws -> ProcessResult {
        try await NarrateProcess.narrate(arguments, in: folder.url, environment: ["NARRATE_LIBRARY": folder.path("library.sqlite"), "NARRATE_CACHE_DIR": folder.path("cache")])
    }

    private func output(_ arguments: [String]) async throws -> String {
        let result = try await narrate(arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return String(decoding: result.stdout, as: UTF8.self)
    }

    @Test("Bookmarks added by page label are listed in reading order, as text and JSON, and removed by id")
    func addListRemove() async throws {
        // Given a book in the library
        let path = try NarrateProcess.corpusFile("epub/wasteland.epub")
        _ = try await output(["add", path, "-q"])
        #expect(try await output(["bookmarks", "1"]).contains("has no bookmarks"))

        // When two pages are bookmarked, the later one first
        let added = try await output(["bookmarks", "add", "waste", "5", "--note", "the Thames"])
        _ = try await output(["bookmarks", "add", "1", "2"])
        let listing = try await output(["bookmarks", "1"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try await output(["bookmarks", "list", "1", "--json"]).utf8)) as? [[String: Any]])

        // Then
        #expect(added.contains("Bookmark 1 on page 5 of 'The Waste Land'."), "\(added)")
        let lines = listing.split(separator: "\n").map(String.init)
        #expect(lines.first == "The Waste Land: 2 bookmarks", "\(listing)")
        #expect(lines.firstIndex { $0.hasPrefix("2     page 2") }! < lines.firstIndex { $0.hasPrefix("1     page 5") }!, "\(listing)")
        #expect(listing.contains("Note: the Thames"))
        #expect(json.map { $0["pageIndex"] as? Int } == [2, 5])
        #expect(json.map { $0["id"] as? Int } == [2, 1])
        #expect(json[1]["note"] as? String == "the Thames")
        #expect((json[0]["excerpt"] as? String)?.isEmpty == false)

        // When one is removed
        let removed = try await narrate(["bookmarks", "remove", "1", "1"])

        // Then
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(removed.stderr.contains("Removed bookmark 1 (page 5)"))
        #expect(try await output(["bookmarks", "1", "--json"]).contains("\"pageIndex\" : 2"))
    }

    @Test("A page past the end, a bookmark the book does not have, and a long note each fail with one line and save nothing")
    func refusals() async throws {
        // Given
        _ = try await output(["add", try NarrateProcess.corpusFile("epub/wasteland.epub"), "-q"])

        // When
        let pastTheEnd = try await narrate(["bookmarks", "add", "1", "40"])
        let unknown = try await narrate(["bookmarks", "remove", "1", "7"])
        let long = try await narrate(["bookmarks", "add", "1", "2", "--note", String(repeating: "x", count: 1_001)])

        // Then
        #expect(pastTheEnd.status != 0 && pastTheEnd.stderr.contains("There is no page 40: the book has 13 pages"), "\(pastTheEnd.stderr)")
        #expect(unknown.status != 0 && unknown.stderr.contains("'The Waste Land' has no bookmark 7. 'narrate bookmarks BOOK' lists"), "\(unknown.stderr)")
        #expect(long.status != 0 && long.stderr.contains("at most 1000"), "\(long.stderr)")
        for result in [pastTheEnd, unknown, long] { #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)") }
        #expect(try await output(["bookmarks", "1"]).contains("has no bookmarks"))
    }

    @Test("A bookmark does not move the place: narrate next goes on from the progress")
    func nextIgnoresBookmarks() async throws {
        // Given a book read to page 1, with a bookmark on page 9
        _ = try await output(["add", try NarrateProcess.corpusFile("epub/wasteland.epub"), "-q"])
        _ = try await output(["next", "1", "-o", folder.path("p1.wav"), "-q"])
        _ = try await output(["bookmarks", "add", "1", "9"])

        // When
        let next = try await narrate(["next", "1", "-o", folder.path("p2.wav")])

        // Then
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stderr.contains("Page 2 (2 of 13)"), "\(next.stderr)")
    }
}
