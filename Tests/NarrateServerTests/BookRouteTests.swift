import Foundation
import HTTPTypes
import NIOCore
import HummingbirdTesting
import Testing
@testable import NarrateServer

/// The library over HTTP: upload, list, detail, contents, pages, text, page audio (with
/// `ETag`, `If-None-Match`, `Range`, `If-Range` and `HEAD`), progress and removal.
@Suite("Book routes")
struct BookRouteTests {
    /// Two short chapters: two pages of a few words, quick to speak.
    static let tinyBook = Array("""
        # The First Chapter

        One short sentence is here.

        # The Second Chapter

        The second page has words too.
        """.utf8)

    /// Uploads the tiny book and gives its id.
    static func upload(_ client: some TestClientProtocol) async throws -> String {
        let response = try await client.post("/v1/books?filename=tiny.md", body: tinyBook, headers: [.contentType: "text/markdown"])
        #expect(response.status == .created)
        return try #require(response.json?["id"] as? String)
    }

    @Test("Given a book file, when it is uploaded, then 201 with its summary and Location; the same file again is 200 and the same book")
    func upload() async throws {
        try await RouteTestServer().test { client in
            let response = try await client.post("/v1/books?filename=tiny.md", body: Self.tinyBook, headers: [.contentType: "application/octet-stream"])
            #expect(response.status == .created)
            let json = try #require(response.json)
            let id = try #require(json["id"] as? String)
            #expect(response.headers[.location] == "/v1/books/\(id)")
            #expect(json["page_count"] as? Int == 2)
            #expect(json["chapter_count"] as? Int == 2)
            #expect(json["format"] as? String == "markdown")
            #expect(json["progress"] == nil)

            let again = try await client.post("/v1/books", body: Self.tinyBook, headers: [.contentType: "text/markdown"])
            #expect(again.status == .ok)
            #expect(again.json?["id"] as? String == id)
        }
    }

    @Test("Given an EPUB from the corpus, when it is uploaded, then its metadata, contents and pages are served")
    func epub() async throws {
        let bytes = try [UInt8](Corpus.file("epub/wasteland.epub").data)
        try await RouteTestServer().test { client in
            let uploaded = try await client.post("/v1/books", body: bytes, headers: [.contentType: "application/epub+zip"])
            #expect(uploaded.status == .created)
            let id = try #require(uploaded.json?["id"] as? String)

            let detail = try #require(try await client.get("/v1/books/\(id)").json)
            #expect(detail["title"] as? String == "The Waste Land")
            #expect(detail["authors"] as? [String] == ["T.S. Eliot"])
            #expect(detail["page_count"] as? Int == 13)
            #expect((detail["language"] as? String)?.hasPrefix("en") == true)

            let toc = try #require(try await client.get("/v1/books/\(id)/toc").json)
            #expect(toc["book_id"] as? String == id)
            let titles = (toc["chapters"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
            #expect(titles.contains { $0.uppercased().contains("BURIAL OF THE DEAD") })

            let text = try await client.get("/v1/books/\(id)/pages/2/text")
            #expect(String(decoding: text.bytes, as: UTF8.self).contains("April is the cruellest month"))
        }
    }

    @Test("Given an uploaded book, when it is listed, detailed, and its contents, pages and a page's text asked for, then each answers")
    func readBook() async throws {
        try await RouteTestServer().test { client in
            let id = try await Self.upload(client)

            let list = try #require(try await client.get("/v1/books").json?["books"] as? [[String: Any]])
            #expect(list.map { $0["id"] as? String } == [id])

            let detail = try await client.get("/v1/books/\(id)")
            #expect(detail.status == .ok)
            #expect(detail.json?["id"] as? String == id)
            #expect(detail.json?["page_count"] as? Int == 2)
            #expect(detail.json?["skipped_words"] as? Int == 0)

            let toc = try #require(try await client.get("/v1/books/\(id)/toc").json)
            let chapters = try #require(toc["chapters"] as? [[String: Any]])
            #expect(chapters.map { $0["title"] as? String } == ["The First Chapter", "The Second Chapter"])
            #expect(chapters.map { $0["page_index"] as? Int } == [1, 2])

            let pages = try #require(try await client.get("/v1/books/\(id)/pages").json?["pages"] as? [[String: Any]])
            #expect(pages.map { $0["index"] as? Int } == [1, 2])
            #expect(pages.map { $0["chapter"] as? String } == ["The First Chapter", "The Second Chapter"])
            #expect(pages.allSatisfy { ($0["words"] as? Int ?? 0) > 0 })

            let text = try await client.get("/v1/books/\(id)/pages/2/text")
            #expect(text.status == .ok)
            #expect(text.headers[.contentType] == "text/plain; charset=utf-8")
            #expect(String(decoding: text.bytes, as: UTF8.self).contains("The second page has words too."))
        }
    }

    @Test("Given a book, when a book or page that does not exist is asked for, then 404 not_found or page_not_found")
    func notFound() async throws {
        try await RouteTestServer().test { client in
            let id = try await Self.upload(client)
            for path in ["/v1/books/999", "/v1/books/999/toc", "/v1/books/999/pages", "/v1/books/not-a-number"] {
                let response = try await client.get(path)
                #expect(response.status == .notFound, "\(path)")
                #expect(response.apiError?.type == "not_found_error", "\(path)")
                #expect(response.apiError?.code == "not_found", "\(path)")
                #expect(response.apiError?.keys == APIErrorBody.openAIKeys, "\(path)")
            }
            for path in ["/v1/books/\(id)/pages/3/text", "/v1/books/\(id)/pages/3/audio?voice=alloy&format=wav"] {
                let response = try await client.get(path)
                #expect(response.status == .notFound, "\(path)")
                #expect(response.apiError?.code == "page_not_found", "\(path)")
            }
        }
    }

    @Test("Given uploads the service cannot take, when posted, then 400 empty_file, 413 file_too_large or 422 unreadable_book without the server's path")
    func badUploads() async throws {
        try await RouteTestServer { $0.maxUploadBytes = 1_000 }.test { client in
            let empty = try await client.post("/v1/books", body: [], headers: [.contentType: "application/octet-stream"])
            #expect(empty.status == .badRequest)
            #expect(empty.apiError?.code == "empty_file")

            let large = try await client.post("/v1/books?filename=big.txt", body: [UInt8](repeating: 0x61, count: 1_001), headers: [.contentType: "application/octet-stream"])
            #expect(large.status == .contentTooLarge)
            #expect(large.apiError?.code == "file_too_large")
            #expect(large.apiError?.keys == APIErrorBody.openAIKeys)

            let broken = try await client.post("/v1/books?filename=broken.epub", body: [0x50, 0x4B, 0x03, 0x04] + [UInt8](repeating: 0, count: 60), headers: [.contentType: "application/octet-stream"])
            #expect(broken.status == .unprocessableContent)
            #expect(broken.apiError?.code == "unreadable_book")
            #expect(broken.apiError?.message?.contains("/uploads/") == false)
        }
    }

    @Test("Given a book, when reading progress is saved by index or label, then it is given back and shown in the detail; bad bodies are 400")
    func progress() async throws {
        try await RouteTestServer().test { client in
            let id = try await Self.upload(client)
            let byIndex = try await client.execute(uri: "/v1/books/\(id)/progress", method: .put, headers: [.contentType: "application/json"], body: .init(string: #"{"page_index": 2}"#))
            #expect(byIndex.status == .ok)
            #expect(byIndex.json?["page_index"] as? Int == 2)
            #expect(byIndex.json?["page"] as? String == "2")
            #expect(byIndex.json?["updated"] != nil)
            let detail = try #require(try await client.get("/v1/books/\(id)").json?["progress"] as? [String: Any])
            #expect(detail["page_index"] as? Int == 2)

            let byLabel = try await client.execute(uri: "/v1/books/\(id)/progress", method: .put, headers: [.contentType: "application/json"], body: .init(string: #"{"page": "1"}"#))
            #expect(byLabel.json?["page_index"] as? Int == 1)

            let pastTheEnd = try await client.execute(uri: "/v1/books/\(id)/progress", method: .put, headers: [.contentType: "application/json"], body: .init(string: #"{"page_index": 3}"#))
            #expect(pastTheEnd.status == .badRequest)
            #expect(pastTheEnd.apiError?.param == "page_index")
            #expect(pastTheEnd.apiError?.code == "page_not_found")

            let notJSON = try await client.execute(uri: "/v1/books/\(id)/progress", method: .put, headers: [.contentType: "application/json"], body: .init(string: "two"))
            #expect(notJSON.status == .badRequest)
            #expect(notJSON.apiError?.code == "invalid_json")

            let neither = try await client.execute(uri: "/v1/books/\(id)/progress", method: .put, headers: [.contentType: "application/json"], body: .init(string: "{}"))
            #expect(neither.status == .badRequest)
            #expect(neither.apiError?.code == "missing_required_parameter")
        }
    }

    @Test("Given a book, when it is deleted, then 204 and it is gone from the list and the detail")
    func delete() async throws {
        try await RouteTestServer().test { client in
            let id = try await Self.upload(client)
            let deleted = try await client.execute(uri: "/v1/books/\(id)", method: .delete)
            #expect(deleted.status == .noContent)
            #expect(try await client.get("/v1/books/\(id)").status == .notFound)
            #expect((try await client.get("/v1/books").json?["books"] as? [Any])?.isEmpty == true)
            #expect(try await client.execute(uri: "/v1/books/\(id)", method: .delete).status == .notFound)
        }
    }

    // MARK: - Page audio

    @Test("Given a page, when its audio is asked for as wav, then a whole WAV with ETag, Accept-Ranges and a true Content-Length; again, the same bytes")
    func pageAudio() async throws {
        try await RouteTestServer().test { client in
            let id = try await Self.upload(client)
            let path = "/v1/books/\(id)/pages/1/audio?voice=alloy&format=wav"
            let first = try await client.get(path)
            #expect(first.status == .ok)
            #expect(first.headers[.contentType] == "audio/wav")
            #expect(first.headers[.acceptRanges] == "bytes")
            #expect(first.headers[.contentLength] == String(first.bytes.count))
            let tag = try #require(first.headers[.eTag])
            let wav = try #require(WAVHeader(first.bytes))
            #expect(wav.sampleRate == 22_050)
            #expect(Int(wav.dataSize) == wav.dataBytes)

            let second = try await client.get(path)
            #expect(second.headers[.eTag] == tag)
            #expect(second.bytes == first.bytes)

            let mp3 = try await client.get("/v1/books/\(id)/pages/1/audio?voice=alloy&format=mp3")
            #expect(mp3.status == .ok)
            #expect(mp3.headers[.contentType] == "audio/mpeg")
            #expect(mp3.headers[.eTag] != tag)

            // No voice named: the book's language chooses one.
            let chosen = try await client.get("/v1/books/\(id)/pages/1/audio?format=wav")
            #expect(chosen.status == .ok)
            #expect(WAVHeader(chosen.bytes) != nil)
        }
    }

    @Test("Given a page's ETag, when its audio is asked for with If-None-Match, then 304 with no body, before and after it is remembered")
    func pageAudioNotModified() async throws {
        try await RouteTestServer().test { client in
            let id = try await Self.upload(client)
            let path = "/v1/books/\(id)/pages/2/audio?voice=alloy&format=wav"
            let tag = try #require(try await client.get(path).headers[.eTag])
            let notModified = try await client.get(path, headers: [.ifNoneMatch: tag])
            #expect(notModified.status == .notModified)
            #expect(notModified.body.readableBytes == 0)
            #expect(notModified.headers[.eTag] == tag)
            #expect(try await client.get(path, headers: [.ifNoneMatch: "*"]).status == .notModified)
            #expect(try await client.get(path, headers: [.ifNoneMatch: "\"something-else\""]).status == .ok)
        }
    }

    @Test("Given a page's audio, when byte ranges are asked for, then 206 with Content-Range, 416 outside it, and If-Range with another tag gets it whole")
    func pageAudioRanges() async throws {
        try await RouteTestServer().test { client in
            let id = try await Self.upload(client)
            let path = "/v1/books/\(id)/pages/1/audio?voice=alloy&format=wav"
            let whole = try await client.get(path)
            let tag = try #require(whole.headers[.eTag])
            let all = whole.bytes
            let length = all.count

            let head = try await client.get(path, headers: [.range: "bytes=0-99"])
            #expect(head.status == .partialContent)
            #expect(head.headers[.contentRange] == "bytes 0-99/\(length)")
            #expect(head.headers[.contentLength] == "100")
            #expect(head.bytes == Array(all[0..<100]))

            let tail = try await client.get(path, headers: [.range: "bytes=-10"])
            #expect(tail.status == .partialContent)
            #expect(tail.headers[.contentRange] == "bytes \(length - 10)-\(length - 1)/\(length)")
            #expect(tail.bytes == Array(all[(length - 10)...]))

            let rest = try await client.get(path, headers: [.range: "bytes=44-"])
            #expect(rest.status == .partialContent)
            #expect(rest.bytes == Array(all[44...]))

            let outside = try await client.get(path, headers: [.range: "bytes=\(length)-"])
            #expect(outside.status == .rangeNotSatisfiable)
            #expect(outside.headers[.contentRange] == "bytes */\(length)")
            #expect(outside.apiError?.code == "range_not_satisfiable")
            #expect(outside.apiError?.keys == APIErrorBody.openAIKeys)

            let sameTag = try await client.get(path, headers: [.range: "bytes=0-9", .ifRange: tag])
            #expect(sameTag.status == .partialContent)
            #expect(sameTag.bytes == Array(all[0..<10]))

            let otherTag = try await client.get(path, headers: [.range: "bytes=0-9", .ifRange: "\"stale\""])
            #expect(otherTag.status == .ok)
            #expect(otherTag.bytes == all)
        }
    }

    @Test("Given a page's audio, when HEAD asks for it, then the headers of the GET with its Content-Length and no body")
    func pageAudioHead() async throws {
        try await RouteTestServer().test { client in
            let id = try await Self.upload(client)
            let path = "/v1/books/\(id)/pages/1/audio?voice=alloy&format=wav"
            let head = try await client.execute(uri: path, method: .head)
            #expect(head.status == .ok)
            #expect(head.body.readableBytes == 0)
            let get = try await client.get(path)
            #expect(head.headers[.contentLength] == String(get.bytes.count))
            #expect(head.headers[.eTag] == get.headers[.eTag])
            #expect(head.headers[.contentType] == "audio/wav")
        }
    }

    @Test("Given a page, when its audio is asked for in a format or voice not offered, then 400 on param format or voice")
    func pageAudioBadChoices() async throws {
        try await RouteTestServer().test { client in
            let id = try await Self.upload(client)
            let format = try await client.get("/v1/books/\(id)/pages/1/audio?format=ogg")
            #expect(format.status == .badRequest)
            #expect(format.apiError?.param == "format")
            let voice = try await client.get("/v1/books/\(id)/pages/1/audio?voice=no-such-voice&format=wav")
            #expect(voice.status == .badRequest)
            #expect(voice.apiError?.param == "voice")
            #expect(voice.apiError?.code == "voice_not_found")
        }
    }
}
