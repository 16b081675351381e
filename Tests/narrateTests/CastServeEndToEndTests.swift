import Foundation
import Testing

/// The service's page audio and export jobs with `cast=auto`.
@Suite("narrate serve with a cast, end to end")
struct CastServeEndToEndTests {
    static let story = """
        Emma Woodhouse sat by the fire.

        \u{201C}I cannot agree,\u{201D} said Emma, \u{201C}you know I cannot.\u{201D}

        Mr. Knightley shook his head. \u{201C}You are quite wrong,\u{201D} replied Mr. Knightley.

        \u{201C}Am I?\u{201D} said Emma.

        """

    @Test("Given a book with dialogue, when a page's audio is asked for with cast=auto, then it is what narrate page --cast auto writes, under an ETag of its own")
    func pageAudioWithCast() async throws {
        // Given
        let folder = try TemporaryFolder()
        try Data(Self.story.utf8).write(to: folder.url.appendingPathComponent("emma.txt"))
        let serve = try await ServeProcess.start()
        let added = try await serve.request("POST", "/v1/books?filename=emma.txt", body: Data(Self.story.utf8))
        #expect(added.status == 201)
        let id = try #require(added.json?["id"] as? String)

        // When
        let plain = try await serve.request("GET", "/v1/books/\(id)/pages/1/audio?format=wav")
        let cast = try await serve.request("GET", "/v1/books/\(id)/pages/1/audio?format=wav&cast=auto")
        let bogus = try await serve.request("GET", "/v1/books/\(id)/pages/1/audio?format=wav&cast=everyone")
        let local = try await NarrateProcess.narrate(["page", "emma.txt", "1", "--cast", "auto", "-o", "local.wav", "--no-cache"], in: folder.url)

        // Then
        #expect(plain.status == 200 && cast.status == 200)
        #expect(plain.header("ETag") != cast.header("ETag"))
        #expect(!identical(plain.body, cast.body))
        #expect(local.status == 0, "\(local.stderr)")
        #expect(identical(try WAVFile(cast.body).data, try WAVFile(path: folder.path("local.wav")).data))
        #expect(bogus.status == 400)
        #expect((bogus.json?["error"] as? [String: Any])?["param"] as? String == "cast")
        #expect(await serve.terminate() == 0)
    }

    @Test("Given a book with dialogue, when an export job asks for cast auto, then it finishes; any other cast is refused at once")
    func exportWithCast() async throws {
        // Given
        let serve = try await ServeProcess.start()
        let added = try await serve.request("POST", "/v1/books?filename=emma.txt", body: Data(Self.story.utf8))
        let id = try #require(added.json?["id"] as? String)

        // When
        let job = try await serve.request("POST", "/v1/books/\(id)/exports", json: ["format": "wav", "cast": "auto"])
        let refused = try await serve.request("POST", "/v1/books/\(id)/exports", json: ["format": "wav", "cast": "mine.json"])

        // Then
        #expect(job.status == 202)
        #expect(refused.status == 400)
        let location = try #require(job.header("Location"))
        var state = ""
        for _ in 0..<600 where state != "done" && state != "failed" {
            state = try await serve.request("GET", location).json?["state"] as? String ?? ""
            if state != "done", state != "failed" { try await Task.sleep(for: .milliseconds(200)) }
        }
        #expect(state == "done")
        #expect(await serve.terminate() == 0)
    }

    @Test("Given a book with dialogue, when its cast is asked for, then its speakers come with proposed voices and the choices; a character given another voice is read in it, timing included")
    func castListingAndPicker() async throws {
        // Given
        let folder = try TemporaryFolder()
        try Data(Self.story.utf8).write(to: folder.url.appendingPathComponent("emma.txt"))
        let serve = try await ServeProcess.start()
        let added = try await serve.request("POST", "/v1/books?filename=emma.txt", body: Data(Self.story.utf8))
        let id = try #require(added.json?["id"] as? String)

        // When
        let listing = try await serve.request("GET", "/v1/books/\(id)/cast")
        let characters = try #require(listing.json?["characters"] as? [[String: Any]])
        let voices = try #require(listing.json?["voices"] as? [[String: Any]])
        let knightley = try #require(characters.first { $0["name"] as? String == "Mr. Knightley" }?["voice"] as? String)
        let picked = "/v1/books/\(id)/pages/1/audio?format=wav&cast=auto&character=Emma%3Den-us%2Bm5"
        let audio = try await serve.request("GET", picked)
        let timing = try await serve.request("GET", "/v1/books/\(id)/pages/1/timing?cast=auto&character=Emma%3Den-us%2Bm5")
        let proposed = try await serve.request("GET", "/v1/books/\(id)/pages/1/timing?cast=auto")
        let malformed = try await serve.request("GET", "/v1/books/\(id)/pages/1/audio?cast=auto&character=Emma")
        let alone = try await serve.request("GET", "/v1/books/\(id)/pages/1/audio?character=Emma%3Den-us%2Bm5")
        let cast: [String: Any] = ["characters": [["name": "Emma", "voice": "en-us+m5"], ["name": "Mr. Knightley", "voice": knightley]]]
        try JSONSerialization.data(withJSONObject: cast).write(to: folder.url.appendingPathComponent("cast.json"))
        let local = try await NarrateProcess.narrate(["page", "emma.txt", "1", "--cast", "cast.json", "-o", "local.wav", "--no-cache"], in: folder.url)

        // Then
        #expect(listing.status == 200)
        #expect(characters.map { $0["name"] as? String } == ["Emma", "Mr. Knightley"])
        #expect(characters.allSatisfy { ($0["lines"] as? Int ?? 0) > 0 && !($0["voice"] as? String ?? "").isEmpty })
        #expect(voices.contains { $0["name"] as? String == "en-us+m5" && $0["gender"] as? String == "M" })
        #expect(audio.status == 200 && timing.status == 200 && proposed.status == 200)
        #expect(local.status == 0, "\(local.stderr)")
        #expect(identical(try WAVFile(audio.body).data, try WAVFile(path: folder.path("local.wav")).data))
        #expect(timing.header("ETag") != proposed.header("ETag"))
        #expect(malformed.status == 400 && alone.status == 400)
        #expect(await serve.terminate() == 0)
    }
}
