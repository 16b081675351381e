import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
@testable import NarrateServer

/// A book's bookmarks over HTTP: `GET`, `POST /v1/books/{id}/bookmarks` and `DELETE …/{bookmark}`.
@Suite("Bookmark routes")
struct BookmarkRouteTests {
    static let json: HTTPFields = [.contentType: "application/json"]

    static func add(_ client: some TestClientProtocol, book: String, _ body: String) async throws -> TestResponse {
        try await client.execute(uri: "/v1/books/\(book)/bookmarks", method: .post, headers: json, body: ByteBuffer(string: body))
    }

    @Test("Given a book, when bookmarks are added by index and by label, then they are listed in reading order with their place, excerpt and note")
    func addAndList() async throws {
        try await RouteTestServer().test { client in
            // Given
            let id = try await BookRouteTests.upload(client)

            // When
            let second = try await Self.add(client, book: id, #"{"page_index": 2, "text_offset": 4, "note": "  the second  "}"#)
            let first = try await Self.add(client, book: id, #"{"page": "1"}"#)
            let listed = try await client.get("/v1/books/\(id)/bookmarks")

            // Then
            #expect(second.status == .created)
            #expect(second.json?["page_index"] as? Int == 2)
            #expect(second.json?["page"] as? String == "2")
            #expect(second.json?["text_offset"] as? Int == 4)
            #expect(second.json?["note"] as? String == "the second")
            #expect(second.json?["created"] is String)
            #expect(first.json?["note"] == nil)
            #expect(listed.status == .ok)
            let json = try #require(listed.json)
            #expect(json["book_id"] as? String == id)
            let bookmarks = try #require(json["bookmarks"] as? [[String: Any]])
            #expect(bookmarks.compactMap { $0["id"] as? String } == [first.json?["id"] as? String, second.json?["id"] as? String].compactMap { $0 })
            let excerpts = bookmarks.compactMap { $0["excerpt"] as? String }
            #expect(excerpts.count == 2 && excerpts[0].hasPrefix("The First Chapter"), "\(excerpts)")
            #expect(excerpts[1].hasPrefix("Second Chapter"), "\(excerpts)")
        }
    }

    @Test("Given a bookmark, when it is removed, then 204 and it is no longer listed; again, 404 bookmark_not_found")
    func remove() async throws {
        try await RouteTestServer().test { client in
            // Given
            let id = try await BookRouteTests.upload(client)
            let bookmark = try #require(try await Self.add(client, book: id, #"{"page_index": 1}"#).json?["id"] as? String)

            // When
            let removed = try await client.execute(uri: "/v1/books/\(id)/bookmarks/\(bookmark)", method: .delete)
            let again = try await client.execute(uri: "/v1/books/\(id)/bookmarks/\(bookmark)", method: .delete)
            let notANumber = try await client.execute(uri: "/v1/books/\(id)/bookmarks/first", method: .delete)

            // Then
            #expect(removed.status == .noContent)
            #expect((try await client.get("/v1/books/\(id)/bookmarks").json?["bookmarks"] as? [Any])?.isEmpty == true)
            #expect(again.status == .notFound)
            #expect(again.apiError?.code == "bookmark_not_found")
            #expect(notANumber.status == .notFound)
        }
    }

    @Test("Given bad requests, when they are sent, then each gets one clear error and nothing is saved")
    func refusals() async throws {
        try await RouteTestServer().test { client in
            // Given
            let id = try await BookRouteTests.upload(client)

            // When
            let noPage = try await Self.add(client, book: id, #"{"note": "where?"}"#)
            let notJSON = try await Self.add(client, book: id, "page 2")
            let pastTheEnd = try await Self.add(client, book: id, #"{"page_index": 3}"#)
            let offPage = try await Self.add(client, book: id, #"{"page_index": 1, "text_offset": 100000}"#)
            let longNote = try await Self.add(client, book: id, "{\"page_index\": 1, \"note\": \"\(String(repeating: "n", count: 1_001))\"}")
            let asText = try await client.execute(uri: "/v1/books/\(id)/bookmarks", method: .post, headers: [.contentType: "text/plain"], body: ByteBuffer(string: #"{"page_index": 1}"#))
            let noBook = try await Self.add(client, book: "999", #"{"page_index": 1}"#)

            // Then
            #expect(noPage.status == .badRequest && noPage.apiError?.code == "missing_required_parameter")
            #expect(notJSON.status == .badRequest && notJSON.apiError?.code == "invalid_json")
            #expect(pastTheEnd.status == .badRequest && pastTheEnd.apiError?.code == "page_not_found" && pastTheEnd.apiError?.param == "page")
            #expect(offPage.status == .badRequest && offPage.apiError?.param == "text_offset")
            #expect(longNote.status == .badRequest && longNote.apiError?.code == "note_too_long")
            #expect(asText.status == .unsupportedMediaType)
            #expect(noBook.status == .notFound)
            #expect((try await client.get("/v1/books/\(id)/bookmarks").json?["bookmarks"] as? [Any])?.isEmpty == true)
        }
    }

    @Test("Given another site's page, when it adds a bookmark, then 403 and nothing is saved")
    func crossSite() async throws {
        try await RouteTestServer().test { client in
            // Given
            let id = try await BookRouteTests.upload(client)

            // When
            let refused = try await client.execute(
                uri: "/v1/books/\(id)/bookmarks", method: .post,
                headers: [.contentType: "application/json", HTTPField.Name("Origin")!: "https://evil.example"], body: ByteBuffer(string: #"{"page_index": 1}"#))

            // Then
            #expect(refused.status == .forbidden)
            #expect((try await client.get("/v1/books/\(id)/bookmarks").json?["bookmarks"] as? [Any])?.isEmpty == true)
        }
    }
}
