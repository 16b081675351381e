import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import NarrateServer

/// Books exported for download over HTTP: `POST /v1/books/{id}/exports`, the job, its events,
/// its file with byte ranges, cancelling, and the requests refused.
@Suite("Export routes")
struct ExportRouteTests {
    /// Posts an export of the tiny book and gives the job's id.
    private func export(_ client: some TestClientProtocol, book: String, body: String) async throws -> String {
        let response = try await client.post("/v1/books/\(book)/exports", body: Array(body.utf8), headers: [.contentType: "application/json"])
        #expect(response.status == .accepted, "\(response.string)")
        let id = try #require(response.json?["id"] as? String)
        #expect(response.headers[.location] == "/v1/exports/\(id)")
        return id
    }

    /// Waits for the job to be over (a watchdog of 10 minutes only reports a hang); gives it.
    private func finished(_ client: some TestClientProtocol, _ id: String) async throws -> [String: Any] {
        for _ in 0..<6_000 {
            let job = try #require(try await client.get("/v1/exports/\(id)").json)
            if ["done", "failed", "cancelled"].contains(job["state"] as? String) { return job }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("the export did not finish in 10 minutes: a hang")
        return [:]
    }

    @Test("Given a book, when one chapter is exported as WAV, then the job ends done and its file downloads whole and by byte ranges")
    func wav() async throws {
        try await RouteTestServer().test { client in
            // Given
            let book = try await BookRouteTests.upload(client)

            // When
            let id = try await export(client, book: book, body: #"{"format": "wav", "voice": "alloy", "chapters": [2, 2]}"#)
            let job = try await finished(client, id)

            // Then
            #expect(job["state"] as? String == "done", "\(job)")
            #expect(job["fraction"] as? Double == 1)
            #expect(job["download"] as? String == "/v1/exports/\(id)/file")
            let file = try await client.get("/v1/exports/\(id)/file")
            #expect(file.status == .ok)
            #expect(file.headers[.contentType] == "audio/wav")
            #expect(file.headers[.contentDisposition]?.hasPrefix("attachment; filename=") == true)
            let wav = try #require(WAVHeader(file.bytes))
            #expect(wav.seconds > 1 && wav.seconds < 10)
            #expect(job["bytes"] as? Int == file.bytes.count)
            let range = try await client.get("/v1/exports/\(id)/file", headers: [.range: "bytes=0-99"])
            #expect(range.status == .partialContent)
            #expect(range.bytes == Array(file.bytes.prefix(100)))
            let list = try #require(try await client.get("/v1/exports").json?["exports"] as? [[String: Any]])
            #expect(list.map { $0["id"] as? String } == [id])
        }
    }

    @Test("Given an export, when its events are read, then progress events, then one 'done' with the job as data")
    func events() async throws {
        try await RouteTestServer().test { client in
            let book = try await BookRouteTests.upload(client)
            let id = try await export(client, book: book, body: #"{"format": "mp3", "voice": "alloy"}"#)

            let events = try await client.get("/v1/exports/\(id)/events")

            #expect(events.headers[.contentType] == "text/event-stream")
            let names = events.string.split(separator: "\n").filter { $0.hasPrefix("event: ") }.map { String($0.dropFirst(7)) }
            #expect(names.last == "done", "\(events.string)")
            #expect(names.dropLast().allSatisfy { $0 == "progress" })
            let last = try #require(events.string.split(separator: "\n").last { $0.hasPrefix("data: ") })
            let job = try #require(try JSONSerialization.jsonObject(with: Data(last.dropFirst(6).utf8)) as? [String: Any])
            #expect(job["state"] as? String == "done")
            #expect((job["file_name"] as? String)?.hasSuffix(".mp3") == true)
        }
    }

    @Test("Given every slot taken, when an export is posted, then it waits queued, its file is 409, and DELETE cancels and removes it")
    func queuedAndCancelled() async throws {
        let server = try RouteTestServer()
        try await server.test { client in
            // Given
            let book = try await BookRouteTests.upload(client)
            for _ in 0..<server.backend.queue.slots { try await server.backend.queue.acquire() }

            // When
            let id = try await export(client, book: book, body: #"{"format": "m4b", "voice": "alloy"}"#)

            // Then
            #expect(try await client.get("/v1/exports/\(id)").json?["state"] as? String == "queued")
            let early = try await client.get("/v1/exports/\(id)/file")
            #expect(early.status == .conflict)
            #expect(early.apiError?.code == "export_not_ready")
            let deleted = try await client.execute(uri: "/v1/exports/\(id)", method: .delete)
            #expect(deleted.status == .noContent)
            #expect(try await client.get("/v1/exports/\(id)").status == .notFound)
            #expect(await server.backend.queue.backgroundDepth == 0)
            for _ in 0..<server.backend.queue.slots { await server.backend.queue.release() }
        }
    }

    @Test("Given a book, when an export asks for a format, chapters or voice it cannot have, then 400 naming it; no such book or job, 404")
    func refused() async throws {
        try await RouteTestServer().test { client in
            let book = try await BookRouteTests.upload(client)
            for (body, param) in [(#"{"format": "ogg"}"#, "format"), (#"{"format": "wav", "chapters": [2, 5]}"#, "chapters"),
                                  (#"{"format": "wav", "chapters": [2, 1]}"#, "chapters"), (#"{"format": "wav", "voice": "no-such-voice"}"#, "voice")] {
                let response = try await client.post("/v1/books/\(book)/exports", body: Array(body.utf8), headers: [.contentType: "application/json"])
                #expect(response.status == .badRequest, "\(body)")
                #expect(response.apiError?.param == param, "\(body)")
            }
            let notJSON = try await client.post("/v1/books/\(book)/exports", body: Array("format=wav".utf8))
            #expect(notJSON.status == .badRequest)
            #expect(try await client.post("/v1/books/999/exports", body: Array("{}".utf8)).status == .notFound)
            #expect(try await client.get("/v1/exports/nope").status == .notFound)
            #expect(try await client.get("/v1/exports/nope/file").status == .notFound)
            #expect(try await client.execute(uri: "/v1/exports/nope", method: .delete).status == .notFound)
            #expect(try await client.get("/v1/exports").json?["exports"] as? [Any] != nil)
        }
    }
}
