import Foundation
import Testing

/// A machine whose engine cannot start (`NARRATE_WORKER=/bin/false`, as when eSpeak's data or
/// ONNX Runtime went missing) still serves what its cache holds; and the engine processes it
/// does start never see a credential.
@Suite("Degraded engine and the workers' environment", .serialized)
struct DegradedEngineEndToEndTests {
    static let cached = "This sentence was spoken while the engine still worked."
    static let noEngine = ["NARRATE_WORKER": "/bin/false"]

    @Test("Given a cache from a working service, when serve starts without its engine, then a cached sentence is 200 and identical, an uncached one 503, and /healthz and /metrics say so")
    func serveDegraded() async throws {
        // Given
        let folder = try TemporaryFolder()
        let working = try await ServeProcess.start(folder: folder)
        let first = try await working.speech(Self.cached)
        #expect(first.status == 200)
        _ = await working.terminate()

        // When
        let degraded = try await ServeProcess.start(environment: Self.noEngine, folder: folder)
        let again = try await degraded.speech(Self.cached)
        let uncached = try await degraded.speech("Nobody has ever asked for this sentence before.")
        let health = try await degraded.request("GET", "/healthz")
        let metrics = try await degraded.request("GET", "/metrics")

        // Then
        #expect(again.status == 200)
        #expect(again.body == first.body)
        #expect(uncached.status == 503)
        #expect(uncached.errorCode == "engine_unavailable")
        #expect((uncached.json?["error"] as? [String: Any])?["message"] as? String == "Synthesis is unavailable: the speech engine cannot run, and this text is not in the cache; the service's log says why. Try again later.")
        #expect(health.json?["synthesis"] as? String == "unavailable")
        #expect(String(decoding: metrics.body, as: UTF8.self).contains("narrate_synthesis_available 0"))
        #expect(degraded.log().contains("Synthesis is unavailable"))
        #expect(await degraded.terminate() == 0)
    }

    @Test("Given a book made with the engine, when it is made again without one, then the file is byte-identical; a book with an uncached chapter stops with one line")
    func bookDegraded() async throws {
        // Given
        let folder = try TemporaryFolder()
        try "# One\n\n\(Self.cached)\n".write(toFile: folder.path("book.md"), atomically: true, encoding: .utf8)
        try "# One\n\n\(Self.cached)\n\n# Two\n\nThis chapter was never spoken.\n".write(toFile: folder.path("more.md"), atomically: true, encoding: .utf8)
        let cache = ["--cache-dir", folder.path("cache"), "--format", "wav", "--quiet"]
        let made = try await NarrateProcess.narrate(["book", "book.md", "-o", "first"] + cache, in: folder.url)
        #expect(made.status == 0, "\(made.stderr)")

        // When
        let again = try await NarrateProcess.narrate(["book", "book.md", "-o", "second"] + cache, in: folder.url, environment: Self.noEngine)
        let more = try await NarrateProcess.narrate(["book", "more.md", "-o", "more"] + cache, in: folder.url, environment: Self.noEngine)

        // Then
        #expect(again.status == 0, "\(again.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path("first")).filter { $0.hasSuffix(".wav") }
        #expect(files.count == 1)
        for file in files {
            #expect(FileManager.default.contents(atPath: folder.path("first/\(file)")) == FileManager.default.contents(atPath: folder.path("second/\(file)")))
        }
        #expect(more.status != 0)
        let lines = more.stderr.split(separator: "\n").filter { !$0.hasPrefix("Speaking with") }
        #expect(lines.count == 1, "\(more.stderr)")
        #expect(lines.first?.contains("could not start") == true, "\(more.stderr)")
    }

    @Test("Given credentials in the service's environment, when its engine processes run, then /proc/<pid>/environ of each holds none of them")
    func workersGetNoCredentials() async throws {
        // Given
        let secrets = [
            "AWS_SECRET_ACCESS_KEY": "aws-secret-0123456789", "AWS_SESSION_TOKEN": "aws-session-0123456789",
            "OPENAI_API_KEY": "sk-openai-0123456789", "NARRATE_API_KEY": "sk-narrate-0123456789", "SOME_SERVICE_TOKEN": "token-0123456789",
        ]
        let service = try await ServeProcess.start(environment: secrets)

        // When: a request starts the workers
        #expect(try await service.speech("Workers start now.").status == 200)
        let workers = service.workerProcessIDs()

        // Then
        #expect(!workers.isEmpty)
        for pid in workers {
            let environ = try #require(FileManager.default.contents(atPath: "/proc/\(pid)/environ"))
            #expect(environ.range(of: Data("PATH=".utf8)) != nil, "the environment was read")
            for (name, value) in secrets {
                #expect(environ.range(of: Data(value.utf8)) == nil, "\(name) reached worker \(pid)")
            }
        }
        _ = await service.terminate()
    }
}
