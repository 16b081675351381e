import Foundation
import Testing

/// `narrate book`: every split and format on a real book, resuming after SIGKILL, crashing
/// workers, and shards.
@Suite("Book export, end to end")
struct ExportEndToEndTests {
    /// One cache for the whole suite, shared by parallel tests as several processes would:
    /// the book is synthesized once and assembled many times.
    static let sharedCache: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("narrate-e2e-export-cache-\(getpid())").path
        return path
    }()

    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    private func narrate(_ arguments: [String], cache: String = ExportEndToEndTests.sharedCache, environment: [String: String] = [:]) async throws -> ProcessResult {
        var env = ["NARRATE_LIBRARY": folder.path("library.sqlite"), "NARRATE_CACHE_DIR": cache]
        for (key, value) in environment { env[key] = value }
        return try await NarrateProcess.narrate(arguments, in: folder.url, environment: env)
    }

    private func manifest(_ directory: String) async throws -> [String: Any] {
        let data = try Data(contentsOf: folder.url.appendingPathComponent(directory).appendingPathComponent("manifest.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    private func manifestFiles(_ directory: String) async throws -> [[String: Any]] {
        try #require(try await manifest(directory)["files"] as? [[String: Any]])
    }

    static let combinations: [(String, String)] = ["page", "chapter", "book"].flatMap { split in ["wav", "mp3", "m4b"].map { (split, $0) } }

    @Test("Moby-Dick exports in every split and format; manifest durations match the files; cues lie within them", arguments: combinations)
    func exportsEverySplitAndFormat(split: String, format: String) async throws {
        // Given: three short chapters of Moby-Dick (table-of-contents entries 7-9: chapters 5 to 7,
        // nine pages; the transcriber's notes and copyright page are skipped matter), fast
        let book = try NarrateProcess.corpusFile("epub/moby-dick.epub")
        let tocOutput = try await narrate(["toc", book, "--json"]).stdout
        let toc = try #require(try JSONSerialization.jsonObject(with: tocOutput) as? [[String: Any]])
        let firstPage = try #require(toc[6]["pageIndex"] as? Int)
        let endPage = try #require(toc[9]["pageIndex"] as? Int)

        // When
        let result = try await narrate(["book", book, "-o", "out", "--split", split, "--format", format, "--chapters", "7-9", "--subtitles", split == "page" ? "srt" : "vtt", "--rate", "450"])

        // Then
        #expect(result.status == 0, "\(result.stderr)")
        let manifest = try await manifest("out")
        #expect(manifest["complete"] as? Bool == true)
        let files = try await manifestFiles("out")
        let expectedCount = ["page": endPage - firstPage, "chapter": 3, "book": 1][split]
        #expect(files.count == expectedCount, "\(files.count) files")
        for file in files {
            let name = try #require(file["fileName"] as? String)
            let path = folder.path("out/" + name)
            let info = try await MediaProbe.probe(path)
            let duration = try #require(file["duration"] as? Double)
            #expect(abs(info.duration - duration) <= max(0.08, duration * 0.005), "\(name): file \(info.duration) s, manifest \(duration) s")
            #expect(info.channels == 1)
            #expect(info.sampleRate == 22_050)
            #expect(info.codec == ["wav": "pcm_s16le", "mp3": "mp3", "m4b": "aac"][format])
            let subtitles = try #require(file["subtitleFileName"] as? String)
            let ends = try MediaProbe.cueEnds(folder.path("out/" + subtitles))
            #expect(!ends.isEmpty)
            #expect(ends.allSatisfy { $0 <= duration + 0.001 }, "\(subtitles): a cue ends after the audio")
            #expect(((file["cacheKeys"] as? [String]) ?? []).allSatisfy { $0.count == 64 })
        }
        let names = files.compactMap { $0["fileName"] as? String }
        #expect(names == names.sorted(), "file names sort in reading order")
        if split == "chapter" {
            #expect(names == ["001 - Chapter 5. Breakfast.\(format)", "002 - Chapter 6. The Street.\(format)", "003 - Chapter 7. The Chapel.\(format)"], "\(names)")
        }
        let playlist = try String(contentsOfFile: folder.path("out/playlist.m3u"), encoding: .utf8)
        #expect(playlist.hasPrefix("#EXTM3U"))
        #expect(names.allSatisfy { playlist.contains($0) })
    }

    @Test("MP3 files carry ID3 tags and the cover; an M4B book carries its chapters")
    func tagsAndChapters() async throws {
        // Given
        let book = try NarrateProcess.corpusFile("epub/moby-dick.epub")

        // When
        let mp3 = try await narrate(["book", book, "-o", "mp3", "--format", "mp3", "--chapters", "7-8", "--rate", "450"])
        let m4b = try await narrate(["book", book, "-o", "m4b", "--format", "m4b", "--split", "book", "--chapters", "7-9", "--rate", "450"])

        // Then
        #expect(mp3.status == 0, "\(mp3.stderr)")
        #expect(m4b.status == 0, "\(m4b.stderr)")
        let first = try #require(try await manifestFiles("mp3").first?["fileName"] as? String)
        let tags = try await MediaProbe.probe(folder.path("mp3/" + first))
        #expect(tags.tags["album"] == "Moby-Dick")
        #expect(tags.tags["artist"]?.contains("Melville") == true)
        #expect(tags.tags["track"] == "1/2")
        #expect(tags.tags["title"]?.uppercased().contains("BREAKFAST") == true, "\(tags.tags)")
        #expect(tags.hasCover)
        let whole = try #require(try await manifestFiles("m4b").first?["fileName"] as? String)
        let info = try await MediaProbe.probe(folder.path("m4b/" + whole))
        #expect(info.chapters.count == 3)
        #expect(info.chapters.first?.start == 0)
        #expect(info.chapters.map(\.title).contains { $0.uppercased().contains("THE STREET") })
        #expect(info.hasCover)
    }

    @Test("A re-run of a finished book rewrites nothing")
    func rerunRewritesNothing() async throws {
        // Given
        let book = try NarrateProcess.corpusFile("epub/wasteland.epub")
        #expect(try await narrate(["book", book, "-o", "out", "--format", "wav", "--subtitles", "vtt", "--rate", "450"]).status == 0)
        let before = try Self.modificationTimes(folder.url.appendingPathComponent("out"))

        // When
        let again = try await narrate(["book", book, "-o", "out", "--format", "wav", "--subtitles", "vtt", "--rate", "450"])

        // Then
        #expect(again.status == 0)
        #expect(again.stderr.contains("0 written, 6 already done"), "\(again.stderr)")
        #expect(try Self.modificationTimes(folder.url.appendingPathComponent("out")) == before)
    }

    /// The export the kill tests interrupt: 40 pages, long enough to be running after 3 s.
    static func killedExportArguments() throws -> [String] {
        let book = try NarrateProcess.corpusFile("epub/childrens-literature.epub")
        return ["book", book, "--split", "page", "--format", "wav", "--pages", "1-40", "--rate", "300", "--jobs", "2"]
    }

    /// A file of the uninterrupted export: its name and the duration its manifest gives.
    struct ExportedFile: Sendable {
        let name: String
        let duration: Double
    }

    struct ReferenceExportFailed: Error, CustomStringConvertible {
        let description: String
    }

    /// The uninterrupted reference export, with a cache of its own, made once for the three kill
    /// tests (each would otherwise synthesize the same 40 pages for it).
    static let uninterruptedExport = Task { () throws -> [ExportedFile] in
        let folder = try TemporaryFolder()
        let environment = ["NARRATE_LIBRARY": folder.path("library.sqlite"), "NARRATE_CACHE_DIR": folder.path("cache")]
        let result = try await NarrateProcess.narrate(try killedExportArguments() + ["-o", "reference"], in: folder.url, environment: environment)
        guard result.status == 0 else { throw ReferenceExportFailed(description: "the reference export failed: \(result.stderr)") }
        let data = try Data(contentsOf: folder.url.appendingPathComponent("reference/manifest.json"))
        let files = (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["files"] as? [[String: Any]] ?? []
        return files.map { ExportedFile(name: $0["fileName"] as? String ?? "", duration: $0["duration"] as? Double ?? -1) }
    }

    @Test("An export killed at any moment completes on the next run, as if never interrupted", arguments: [0.5, 1.5, 3.0])
    func resumesAfterKill(after seconds: Double) async throws {
        // Given: an uninterrupted reference export (shared by the three cases)
        let arguments = try Self.killedExportArguments()
        let expected = try await Self.uninterruptedExport.value
        #expect(!expected.isEmpty)

        // When: the same export in a fresh cache, killed with SIGKILL after a while
        let cache = folder.path("cache")
        let killed = try await Self.runAndKill(arguments + ["-o", "out"], in: folder.url, environment: ["NARRATE_LIBRARY": folder.path("library.sqlite"), "NARRATE_CACHE_DIR": cache], after: seconds)
        let entriesBefore = try Self.cacheEntries(cache)
        let resumed = try await narrate(arguments + ["-o", "out", "--verbose"], cache: cache)

        // Then: the re-run completes, reusing what the killed run had stored
        #expect(killed, "the export should still have been running when it was killed")
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let entriesAfter = try Self.cacheEntries(cache)
        for (name, identity) in entriesBefore {
            #expect(entriesAfter[name] == identity, "an entry stored before the kill was synthesized again")
        }
        let files = try await manifestFiles("out")
        #expect(files.count == expected.count)
        for (file, reference) in zip(files, expected) {
            let name = try #require(file["fileName"] as? String)
            #expect(name == reference.name)
            let wav = try WAVFile(path: folder.path("out/" + name))
            let referenceDuration = reference.duration
            #expect(abs(wav.duration - referenceDuration) <= referenceDuration * 0.005, "\(name): \(wav.duration) s against \(referenceDuration) s")
            #expect(abs(wav.duration - (file["duration"] as? Double ?? 0)) < 0.001)
        }
        let leftovers = folder.allFiles().filter { $0.contains(".narrate-tmp-") || $0.contains("/.tmp-") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test("A chunk whose synthesis crashes costs that chunk: its page is reported and the rest of the book completes")
    func workerCrash() async throws {
        // Given: a worker that aborts on one stanza of The Waste Land
        let book = try NarrateProcess.corpusFile("epub/wasteland.epub")
        let arguments = ["book", book, "-o", "out", "--format", "wav", "--rate", "450", "--jobs", "2"]

        // When
        let crashed = try await narrate(arguments, cache: folder.path("cache"), environment: ["NARRATE_WORKER_CRASH_ON": "Madame Sosostris"])
        let written = try FileManager.default.contentsOfDirectory(atPath: folder.path("out")).filter { $0.hasSuffix(".wav") }
        let retried = try await narrate(arguments, cache: folder.path("cache"))

        // Then: one clear error naming the page and the file not written; the others written
        #expect(crashed.status != 0)
        #expect(crashed.stderr.contains("narrate: error:"), "\(crashed.stderr)")
        #expect(crashed.stderr.contains("BURIAL OF THE DEAD"), "\(crashed.stderr)")
        #expect(crashed.stderr.contains("crashed (SIGABRT) on \u{201C}"), "\(crashed.stderr)")
        #expect(crashed.stderr.contains("synthesis failed on page 3"), "\(crashed.stderr)")
        #expect(written.count == 5, "\(written)")
        #expect(retried.status == 0, "\(retried.stderr)")
        #expect(retried.stderr.contains("1 written, 5 already done"), "\(retried.stderr)")
    }

    @Test("Shards fill one cache from separate processes, and a final run assembles the book from it")
    func shards() async throws {
        // Given
        let book = try NarrateProcess.corpusFile("epub/wasteland.epub")
        let cache = folder.path("cache")
        let base = ["book", book, "-o", "out", "--format", "wav", "--rate", "450", "--jobs", "1"]
        let environment = ["NARRATE_LIBRARY": folder.path("library.sqlite"), "NARRATE_CACHE_DIR": cache]
        #expect(try await narrate(["add", book], cache: cache).status == 0)
        let directory = folder.url

        // When: two shards at once, then the assembly
        async let one = Task.detached { try await NarrateProcess.narrate(base + ["--shard", "1/2"], in: directory, environment: environment) }.value
        async let two = Task.detached { try await NarrateProcess.narrate(base + ["--shard", "2/2"], in: directory, environment: environment) }.value
        let (first, second) = try await (one, two)
        #expect(!FileManager.default.fileExists(atPath: folder.path("out/manifest.json")), "a shard writes no files")
        let assembled = try await narrate(base + ["--verbose"], cache: cache)

        // Then
        #expect(first.status == 0, "\(first.stderr)")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(assembled.status == 0, "\(assembled.stderr)")
        #expect(assembled.stderr.contains(", 0 to synthesize"), "\(assembled.stderr)")
        #expect(try await manifestFiles("out").count == 6)
    }

    @Test("Bad selections and options are refused with one clear line")
    func badSelections() async throws {
        let book = try NarrateProcess.corpusFile("epub/wasteland.epub")
        let pages = try await narrate(["book", book, "-o", "out", "--pages", "5-99"])
        #expect(pages.status != 0)
        #expect(pages.stderr.contains("outside the book"), "\(pages.stderr)")
        let shard = try await narrate(["book", book, "--shard", "3/2"])
        #expect(shard.status != 0)
        let noCache = try await narrate(["book", book, "--no-cache"])
        #expect(noCache.status != 0)
        #expect(noCache.stderr.contains("drop --no-cache"), "\(noCache.stderr)")
        try Data("not a folder".utf8).write(to: folder.url.appendingPathComponent("taken"))
        let inTheWay = try await narrate(["book", book, "-o", "taken"])
        #expect(inTheWay.status != 0)
        #expect(inTheWay.stderr.contains("Could not write 'taken': something of that name is in the way. Move it away or choose another name"), "\(inTheWay.stderr)")
        #expect(!inTheWay.stderr.contains(".."), "\(inTheWay.stderr)")
    }

    // MARK: - Helpers

    static func modificationTimes(_ folder: URL) throws -> [String: Date] {
        var times: [String: Date] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            times[name] = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)[.modificationDate] as? Date
        }
        return times
    }

    /// Entry name → (inode, modification time): a re-synthesized entry gets a new inode.
    static func cacheEntries(_ cache: String) throws -> [String: String] {
        var entries: [String: String] = [:]
        let objects = cache + "/objects"
        for shard in (try? FileManager.default.contentsOfDirectory(atPath: objects)) ?? [] {
            for name in try FileManager.default.contentsOfDirectory(atPath: objects + "/" + shard) where !name.hasPrefix(".") {
                let attributes = try FileManager.default.attributesOfItem(atPath: objects + "/" + shard + "/" + name)
                entries[name] = "\(attributes[.systemFileNumber] ?? 0)-\(attributes[.modificationDate] ?? 0)"
            }
        }
        return entries
    }

    /// Starts narrate, kills it with SIGKILL after `seconds`; true if it was still running.
    static func runAndKill(_ arguments: [String], in directory: URL, environment: [String: String], after seconds: Double) async throws -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: NarrateProcess.binary)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try await Task.sleep(for: .seconds(seconds))
        let running = process.isRunning
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        // Its workers see their input close and finish the chunk in hand; give them a moment.
        try await Task.sleep(for: .seconds(1))
        return running
    }
}
