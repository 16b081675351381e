import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import NarrateKit
import Testing
@testable import NarrateServer

/// What the service remembers for a few seconds (voices resolved, pages' audio resolved) seen
/// through the routes, with the clock moved by hand: a change made by another process shows
/// once the memo has expired, not before.
@Suite("Memo routes")
struct MemoRouteTests {
    static func writePreset(rate: Int, in folder: URL) throws {
        let preset = #"{"name": "reader", "voice": "en-us", "rate": \#(rate), "pitch": 50, "volume": 100, "wordGap": 0, "language": "en-us"}"#
        try preset.write(to: folder.appendingPathComponent("reader.json"), atomically: true, encoding: .utf8)
    }

    @Test("Given a preset spoken once, when its file is edited, then speech keeps the old voice for 5 s and takes the new one after")
    func editedPresetSeenAfterFiveSeconds() async throws {
        let clock = InstantClockMock()
        let service = try RouteTestServer(now: clock.now)
        try Self.writePreset(rate: 175, in: service.voicesFolder)
        try await service.test { client in
            let before = try await client.speech("Hello there.", voice: "reader", format: "wav")
            #expect(before.status == .ok)
            let oldTag = try #require(before.headers[.eTag])

            try Self.writePreset(rate: 300, in: service.voicesFolder)
            clock.advance(by: .seconds(5) - .milliseconds(1))
            let remembered = try await client.speech("Hello there.", voice: "reader", format: "wav")
            #expect(remembered.headers[.eTag] == oldTag)

            clock.advance(by: .milliseconds(1))
            let after = try await client.speech("Hello there.", voice: "reader", format: "wav")
            #expect(after.headers[.eTag] != oldTag)
            let oldSeconds = try #require(WAVHeader(before.bytes)).seconds
            #expect(try #require(WAVHeader(after.bytes)).seconds < oldSeconds * 0.8)
        }
    }

    @Test("Given a page's audio served, when another process removes the book, then the page is served for 2 s more and is 404 after")
    func removedBookSeenAfterTwoSeconds() async throws {
        let clock = InstantClockMock()
        let service = try RouteTestServer(now: clock.now)
        try await service.test { client in
            let id = try await BookRouteTests.upload(client)
            let path = "/v1/books/\(id)/pages/1/audio?voice=alloy&format=wav"
            let first = try await client.get(path)
            #expect(first.status == .ok)

            // Another process on the same library.
            let other = try NarrateServer(configuration: service.configuration, server: ServerConfiguration(), logger: RouteTestServer.logger)
            try await other.backend.library.deleteBook.execute(reference: id)

            clock.advance(by: .seconds(2) - .milliseconds(1))
            let remembered = try await client.get(path)
            #expect(remembered.status == .ok)
            #expect(remembered.bytes == first.bytes)

            clock.advance(by: .milliseconds(1))
            let gone = try await client.get(path)
            #expect(gone.status == .notFound)
            #expect(gone.apiError?.code == "not_found")
        }
    }

    @Test("Given a page's audio served, when the book is removed through this service, then the page is 404 at once")
    func removedHereSeenAtOnce() async throws {
        let clock = InstantClockMock()
        try await RouteTestServer(now: clock.now).test { client in
            let id = try await BookRouteTests.upload(client)
            let path = "/v1/books/\(id)/pages/1/audio?voice=alloy&format=wav"
            #expect(try await client.get(path).status == .ok)
            _ = try await client.execute(uri: "/v1/books/\(id)", method: .delete)
            let gone = try await client.get(path)
            #expect(gone.status == .notFound)
        }
    }
}
