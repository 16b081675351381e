import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import NarrateServer

/// A page's timing beside its audio: `GET /v1/books/{id}/pages/{page}/timing` as JSON or
/// WebVTT, for the voice and speed of the audio, and the audio's `speed`.
@Suite("Page timing routes")
struct PageTimingRouteTests {
    /// The words of `timing` as the page's text has them, by their UTF-16 offsets.
    private func slices(_ spans: [[String: Any]], of text: String) -> [String] {
        let units = Array(text.utf16)
        return spans.map { span in
            let from = span["from"] as? Int ?? 0, to = span["to"] as? Int ?? 0
            return String(decoding: units[from..<to], as: UTF16.self)
        }
    }

    @Test("Given a page read by eSpeak, when its timing is asked for, then its sentences and words are slices of the page text, in order, within the audio's duration")
    func json() async throws {
        try await RouteTestServer().test { client in
            // Given
            let id = try await BookRouteTests.upload(client)
            let text = try await client.get("/v1/books/\(id)/pages/2/text").string
            let wav = try #require(WAVHeader(try await client.get("/v1/books/\(id)/pages/2/audio?voice=alloy&format=wav").bytes))

            // When
            let response = try await client.get("/v1/books/\(id)/pages/2/timing?voice=alloy")

            // Then
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json")
            let timing = try #require(response.json)
            #expect(timing["text"] as? String == text)
            #expect(timing["timing"] as? String == "words")
            #expect(timing["offsets"] as? String == "utf16")
            let duration = try #require(timing["duration"] as? Double)
            #expect(abs(duration - Double(wav.dataBytes / 2) / Double(wav.sampleRate)) < 0.002)
            let sentences = try #require(timing["sentences"] as? [[String: Any]])
            #expect(slices(sentences, of: text).last == "The second page has words too.")
            let words = try #require(timing["words"] as? [[String: Any]])
            #expect(slices(words, of: text).suffix(6) == ["The", "second", "page", "has", "words", "too"])
            let starts = words.compactMap { $0["start"] as? Double }
            #expect(starts == starts.sorted())
            #expect(starts.allSatisfy { $0 >= 0 && $0 <= duration })
            #expect(sentences.first?["start"] as? Double == 0)
            #expect(sentences.last?["end"] as? Double == duration)
        }
    }

    @Test("Given a page's timing, when it is asked for again with its ETag, then 304; as vtt, a WebVTT track with word timestamps")
    func tagAndVTT() async throws {
        try await RouteTestServer().test { client in
            let id = try await BookRouteTests.upload(client)
            let first = try await client.get("/v1/books/\(id)/pages/1/timing?voice=alloy")
            #expect(first.status == .ok, "\(first.string)")
            let tag = try #require(first.headers[.eTag])

            let again = try await client.get("/v1/books/\(id)/pages/1/timing?voice=alloy", headers: [.ifNoneMatch: tag])
            #expect(again.status == .notModified)

            let vtt = try await client.get("/v1/books/\(id)/pages/1/timing?voice=alloy&format=vtt")
            #expect(vtt.status == .ok)
            #expect(vtt.headers[.contentType] == "text/vtt; charset=utf-8")
            #expect(vtt.headers[.eTag] != tag)
            #expect(vtt.string.hasPrefix("WEBVTT\n\n00:00:00.000 --> "))
            #expect(vtt.string.contains("sentence"))
        }
    }

    @Test("Given a page, when its audio and timing are asked for at speed 2, then the audio is shorter and the timing is that audio's")
    func speed() async throws {
        try await RouteTestServer().test { client in
            // Given
            let id = try await BookRouteTests.upload(client)
            let normal = try #require(WAVHeader(try await client.get("/v1/books/\(id)/pages/2/audio?voice=alloy&format=wav").bytes))

            // When
            let fast = try #require(WAVHeader(try await client.get("/v1/books/\(id)/pages/2/audio?voice=alloy&format=wav&speed=2").bytes))
            let timing = try #require(try await client.get("/v1/books/\(id)/pages/2/timing?voice=alloy&speed=2").json)

            // Then
            #expect(fast.dataBytes < normal.dataBytes * 3 / 4)
            let duration = try #require(timing["duration"] as? Double)
            #expect(abs(duration - Double(fast.dataBytes / 2) / Double(fast.sampleRate)) < 0.002)
        }
    }

    @Test("Given a page, when the timing or audio is asked for with a bad speed or format, then 400 naming the parameter")
    func badChoices() async throws {
        try await RouteTestServer().test { client in
            let id = try await BookRouteTests.upload(client)
            for path in ["/v1/books/\(id)/pages/1/timing?speed=fast", "/v1/books/\(id)/pages/1/audio?speed=fast", "/v1/books/\(id)/pages/1/audio?speed=nan"] {
                let response = try await client.get(path)
                #expect(response.status == .badRequest, "\(path)")
                #expect(response.apiError?.param == "speed", "\(path)")
            }
            let tooFast = try await client.get("/v1/books/\(id)/pages/1/timing?voice=alloy&speed=40")
            #expect(tooFast.status == .badRequest)
            #expect(tooFast.apiError?.param == "speed")
            let format = try await client.get("/v1/books/\(id)/pages/1/timing?format=srt")
            #expect(format.status == .badRequest)
            #expect(format.apiError?.param == "format")
            let missing = try await client.get("/v1/books/\(id)/pages/99/timing")
            #expect(missing.status == .notFound)
        }
    }
}

/// A page streamed while it is narrated (`stream=true`), for a player that starts on its first
/// sentence.
@Suite("Streamed page audio")
struct StreamedPageRouteTests {
    @Test("Given a page not yet made, when it is asked for with stream=true, then it comes as it is narrated with the samples of the file later served whole, and its timing")
    func streamed() async throws {
        try await RouteTestServer().test { client in
            // Given
            let id = try await BookRouteTests.upload(client)
            let path = "/v1/books/\(id)/pages/2/audio?voice=alloy&format=wav"

            // When
            let streamed = try await client.get(path + "&stream=true")

            // Then: no length or tag (it was made as it went), the same samples as the file
            #expect(streamed.status == .ok)
            #expect(streamed.headers[.eTag] == nil)
            #expect(streamed.headers[.acceptRanges] == nil)
            let whole = try await client.get(path)
            #expect(whole.headers[.eTag] != nil)
            #expect(whole.headers[.contentLength] == String(whole.bytes.count))
            #expect(Array(streamed.bytes.dropFirst(44)) == Array(whole.bytes.dropFirst(44)))
            let timing = try #require(try await client.get("/v1/books/\(id)/pages/2/timing?voice=alloy").json)
            #expect(abs((timing["duration"] as? Double ?? 0) - Double(whole.bytes.count - 44) / 2 / 22_050) < 0.002)
            // And a page already made is served whole even when a stream is asked for
            let again = try await client.get(path + "&stream=true")
            #expect(again.headers[.eTag] == whole.headers[.eTag])
            #expect(again.bytes == whole.bytes)
        }
    }
}
