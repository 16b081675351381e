import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
@testable import NarrateServer

/// A book's cover over HTTP (`GET /v1/books/{id}/cover`): the image the EPUB carries, with its
/// type, an `ETag` and `nosniff`; 404 `cover_not_found` for a book without one.
@Suite("Book cover route")
struct BookCoverRouteTests {
    /// Uploads a corpus EPUB and gives its id.
    static func upload(_ name: String, _ client: some TestClientProtocol) async throws -> String {
        let bytes = try [UInt8](Corpus.file("epub/\(name)").data)
        let uploaded = try await client.post("/v1/books", body: bytes, headers: [.contentType: "application/epub+zip"])
        #expect(uploaded.status == .created)
        return try #require(uploaded.json?["id"] as? String)
    }

    @Test("Given an EPUB with a JPEG cover, when its detail and cover are asked for, then the detail links the cover and it is served as a JPEG")
    func jpegCover() async throws {
        try await RouteTestServer().test { client in
            // Given
            let id = try await Self.upload("wasteland.epub", client)

            // When
            let detail = try #require(try await client.get("/v1/books/\(id)").json)
            let listed = try #require(try await client.get("/v1/books").json?["books"] as? [[String: Any]])
            let cover = try await client.get("/v1/books/\(id)/cover")

            // Then
            #expect(detail["cover"] as? String == "/v1/books/\(id)/cover")
            #expect(listed.first?["cover"] as? String == "/v1/books/\(id)/cover")
            #expect(cover.status == .ok)
            #expect(cover.headers[.contentType] == "image/jpeg")
            #expect(cover.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
            #expect(cover.headers[.contentLength] == String(cover.bytes.count))
            #expect(Array(cover.bytes.prefix(3)) == [0xFF, 0xD8, 0xFF])
            #expect(cover.bytes.count > 1000)
        }
    }

    @Test("Given an EPUB with a PNG cover, when the cover is asked for twice, then the same PNG bytes and ETag; with If-None-Match, 304 and no body")
    func pngCoverNotModified() async throws {
        try await RouteTestServer().test { client in
            // Given
            let id = try await Self.upload("childrens-literature.epub", client)

            // When
            let first = try await client.get("/v1/books/\(id)/cover")
            let again = try await client.get("/v1/books/\(id)/cover")
            let tag = try #require(first.headers[.eTag])
            let unchanged = try await client.get("/v1/books/\(id)/cover", headers: [.ifNoneMatch: tag])

            // Then
            #expect(first.headers[.contentType] == "image/png")
            #expect(Array(first.bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            #expect(again.bytes == first.bytes)
            #expect(again.headers[.eTag] == tag)
            #expect(unchanged.status == .notModified)
            #expect(unchanged.bytes.isEmpty)
        }
    }

    @Test("Given a book without a cover and an id that is no book, when their covers are asked for, then 404 cover_not_found and not_found")
    func noCover() async throws {
        try await RouteTestServer().test { client in
            // Given
            let id = try await BookRouteTests.upload(client)

            // When
            let detail = try #require(try await client.get("/v1/books/\(id)").json)
            let listed = try #require(try await client.get("/v1/books").json?["books"] as? [[String: Any]])
            let missing = try await client.get("/v1/books/\(id)/cover")
            let noBook = try await client.get("/v1/books/987654/cover")

            // Then
            #expect(detail["cover"] == nil)
            #expect(listed.first?["cover"] == nil)
            #expect(missing.status == .notFound)
            #expect(missing.apiError?.code == "cover_not_found")
            #expect(noBook.status == .notFound)
            #expect(noBook.apiError?.code == "not_found")
        }
    }
}
