import Foundation
import Testing

/// The audio cache as a user meets it: second runs are hits, damage heals, processes share.
@Suite("Audio cache, end to end")
struct CacheEndToEndTests {
    let folder: TemporaryFolder
    let text = "Call me Ishmael. Some years ago, never mind how long precisely, having little or no money in my purse, I thought I would sail about a little and see the watery part of the world."

    init() throws {
        folder = try TemporaryFolder()
    }

    private func say(_ output: String, _ extra: [String] = []) async throws -> ProcessResult {
        try await NarrateProcess.narrate(["say", text, "-o", output, "--cache-dir", "cache", "--verbose"] + extra, in: folder.url)
    }

    private func stats() async throws -> [String: Any] {
        let result = try await NarrateProcess.narrate(["cache", "stats", "--cache-dir", "cache", "--json"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
    }

    private func objectFiles() -> [String] {
        folder.allFiles().filter { $0.hasPrefix("cache/objects/") && $0.split(separator: "/").count == 4 }
    }

    @Test("The second identical run is a cache hit with byte-identical output")
    func secondRunIsAHit() async throws {
        // Given
        let first = try await say("first.wav")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("cache miss"))

        // When
        let second = try await say("second.wav")

        // Then
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("cache hit"))
        #expect(!second.stderr.contains("cache miss"))
        #expect(try identical(Data(contentsOf: folder.url.appendingPathComponent("first.wav")), Data(contentsOf: folder.url.appendingPathComponent("second.wav"))))
        let stats = try await stats()
        #expect(stats["entryCount"] as? Int == 1)
        #expect(stats["totalHits"] as? Int == 1)
        #expect((stats["totalDuration"] as? Double ?? 0) > 5)
    }

    @Test("A truncated cache file is detected and healed on the next run")
    func truncatedEntryHeals() async throws {
        // Given
        #expect(try await say("first.wav").status == 0)
        let entry = try #require(objectFiles().first)
        let handle = try FileHandle(forWritingTo: folder.url.appendingPathComponent(entry))
        try handle.truncate(atOffset: 1000)
        try handle.close()

        // When
        let healing = try await say("second.wav")
        let after = try await say("third.wav")

        // Then
        #expect(healing.status == 0, "\(healing.stderr)")
        #expect(healing.stderr.contains("cache miss"))
        #expect(after.stderr.contains("cache hit"))
        let first = try WAVFile(path: folder.path("first.wav"))
        let healed = try WAVFile(path: folder.path("second.wav"))
        #expect(healed.data.count == first.data.count)
        #expect(try identical(Data(contentsOf: folder.url.appendingPathComponent("second.wav")), Data(contentsOf: folder.url.appendingPathComponent("third.wav"))))
        #expect(objectFiles().count == 1)
    }

    @Test("Two processes narrating at once share one cache folder")
    func twoProcessesAtOnce() async throws {
        // Given: a text of several chunks
        let long = (1...12).map { "Paragraph \($0). " + text }.joined(separator: "\n\n")
        try Data(long.utf8).write(to: folder.url.appendingPathComponent("long.txt"))

        // When
        let directory = folder.url
        async let a = Task.detached { try await NarrateProcess.narrate(["say", "-f", "long.txt", "-o", "a.wav", "--cache-dir", "cache"], in: directory) }.value
        async let b = Task.detached { try await NarrateProcess.narrate(["say", "-f", "long.txt", "-o", "b.wav", "--cache-dir", "cache"], in: directory) }.value
        let (resultA, resultB) = try await (a, b)

        // Then: both succeed, and a third run is served wholly from the cache
        #expect(resultA.status == 0, "\(resultA.stderr)")
        #expect(resultB.status == 0, "\(resultB.stderr)")
        let third = try await NarrateProcess.narrate(["say", "-f", "long.txt", "-o", "c.wav", "--cache-dir", "cache", "--verbose"], in: folder.url)
        #expect(third.status == 0)
        #expect(!third.stderr.contains("cache miss"))
        let chunks = third.stderr.components(separatedBy: "cache hit").count - 1
        #expect(chunks > 1)
        #expect(try await stats()["entryCount"] as? Int == chunks)
        let durationA = try WAVFile(path: folder.path("a.wav")).duration
        let durationC = try WAVFile(path: folder.path("c.wav")).duration
        #expect(abs(durationA - durationC) < 0.05 * durationA)
        #expect(!folder.allFiles().contains { $0.contains(".narrate-tmp-") || $0.contains("/.tmp-") })
    }

    @Test("cache prune fits a size budget and cache clear empties the cache")
    func pruneAndClear() async throws {
        // Given
        #expect(try await say("one.wav").status == 0)
        #expect(try await NarrateProcess.narrate(["say", "Another sentence entirely.", "-o", "two.wav", "--cache-dir", "cache"], in: folder.url).status == 0)
        #expect(try await stats()["entryCount"] as? Int == 2)

        // When
        let prune = try await NarrateProcess.narrate(["cache", "prune", "--max-size", "100KB", "--cache-dir", "cache"], in: folder.url)

        // Then: the older, larger entry went first
        #expect(prune.status == 0, "\(prune.stderr)")
        #expect(prune.stderr.contains("Removed 1 entry"))
        #expect(try await stats()["entryCount"] as? Int == 1)
        #expect(try await NarrateProcess.narrate(["cache", "clear", "--cache-dir", "cache"], in: folder.url).status == 0)
        #expect(try await stats()["entryCount"] as? Int == 0)
        #expect(objectFiles().isEmpty)
    }

    @Test("--no-cache neither reads nor writes the cache")
    func noCache() async throws {
        // When
        let result = try await say("out.wav", ["--no-cache"])

        // Then
        #expect(result.status == 0, "\(result.stderr)")
        #expect(objectFiles().isEmpty)
    }

    @Test("The cache folder defaults to $XDG_CACHE_HOME/narrate, and NARRATE_CACHE_DIR overrides it")
    func defaultLocation() async throws {
        // When
        #expect(try await NarrateProcess.narrate(["say", "Hello.", "-o", "a.wav"], in: folder.url).status == 0)
        #expect(try await NarrateProcess.narrate(["say", "Hello.", "-o", "b.wav"], in: folder.url, environment: ["NARRATE_CACHE_DIR": folder.path("env-cache")]).status == 0)

        // Then
        #expect(folder.allFiles().contains { $0.hasPrefix("xdg-cache/narrate/objects/") })
        #expect(folder.allFiles().contains { $0.hasPrefix("env-cache/objects/") })
    }
}
