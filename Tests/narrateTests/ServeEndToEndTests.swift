import Foundation
import Synchronization
import Testing

/// `narrate serve` end to end: the built binary on ephemeral loopback ports, spoken to over
/// HTTP as any client would. (The official openai and wyoming Python clients and schemathesis
/// run against it in scripts/test-serve.sh.)
@Suite("narrate serve, end to end", .serialized)
struct ServeEndToEndTests {
    @Test("Given a sentence, when it is asked for as wav, then the samples equal what narrate say writes")
    func wavEqualsSay() async throws {
        let serve = try await ServeProcess.start()
        let text = "The service speaks exactly as the command line does."
        let reply = try await serve.speech(text, voice: "alloy")
        #expect(reply.status == 200)
        #expect(reply.header("Content-Type") == "audio/wav")
        try await NarrateProcess.narrate(["say", text, "--voice", "alloy", "-o", serve.folder.path("say.wav"), "--no-cache"], in: serve.folder.url)
        let ours = try WAVFile(reply.body)
        let reference = try WAVFile(path: serve.folder.path("say.wav"))
        #expect(ours.sampleRate == 22_050)
        #expect(identical(ours.data, reference.data))
        // The CLI's cache is the service's: the same sentence said by the CLI is a hit.
        try await NarrateProcess.narrate(["say", "A sentence the command line said first.", "--voice", "alloy", "-o", serve.folder.path("first.wav"), "--cache-dir", serve.folder.path("cache")], in: serve.folder.url)
        let hit = try await serve.speech("A sentence the command line said first.", voice: "alloy")
        #expect(hit.header("X-Narrate-Cache") == "hit")
        #expect(await serve.terminate() == 0)
    }

    @Test("Given pcm, when it is asked for, then it is 24 kHz: the wav's duration at 24,000 samples a second")
    func pcmIsResampled() async throws {
        let serve = try await ServeProcess.start()
        let text = "Twenty four thousand samples a second."
        let wav = try WAVFile(try await serve.speech(text, format: "wav").body)
        let pcm = try await serve.speech(text, format: "pcm")
        #expect(pcm.status == 200)
        let expected = wav.duration * 24_000 * 2
        #expect(abs(Double(pcm.body.count) - expected) < expected * 0.01)
    }

    @Test("Given bad requests, when they arrive, then each gets a 4xx in OpenAI's error shape")
    func errorsAreOpenAIShaped() async throws {
        let serve = try await ServeProcess.start(["--max-input", "100"])
        let unknownVoice = try await serve.speech("Hello.", voice: "no-such-voice")
        #expect(unknownVoice.status == 400)
        let error = try #require(unknownVoice.json?["error"] as? [String: Any])
        #expect(error["type"] as? String == "invalid_request_error")
        #expect(error["param"] as? String == "voice")
        #expect(error.keys.sorted() == ["code", "message", "param", "type"])

        let tooLong = try await serve.speech(String(repeating: "word ", count: 30))
        #expect(tooLong.status == 400)
        #expect(tooLong.errorCode == "input_too_long")

        let tooFast = try await serve.speech("Hello.", extra: ["speed": 4.0])
        #expect(tooFast.status == 400)
        let tooFastMessage = (tooFast.json?["error"] as? [String: Any])?["message"] as? String ?? ""
        #expect(tooFastMessage.contains("0.46 to 2.57"))

        let notJSON = try await serve.request("POST", "/v1/audio/speech", body: Data("{not json".utf8), headers: ["Content-Type": "application/json"])
        #expect(notJSON.status == 400)
        #expect(notJSON.errorCode == "invalid_json")

        let missing = try await serve.request("GET", "/v1/nothing-here")
        #expect(missing.status == 404)
        #expect(missing.json?["error"] != nil)
    }

    @Test("Given API keys, when a request has none or a wrong one, then it is 401; the right key passes; health needs none")
    func keys() async throws {
        let folder = try TemporaryFolder()
        try "# comment\nfirst-key\nsecond-key\n".write(toFile: folder.path("keys"), atomically: true, encoding: .utf8)
        let serve = try await ServeProcess.start(["--api-key-file", folder.path("keys")], folder: folder)
        let none = try await serve.speech("Hello.")
        #expect(none.status == 401)
        #expect((none.json?["error"] as? [String: Any])?["type"] as? String == "authentication_error")
        let wrong = try await serve.speech("Hello.", headers: ["Authorization": "Bearer first-kez"])
        #expect(wrong.status == 401)
        let right = try await serve.speech("Hello.", headers: ["Authorization": "Bearer second-key"])
        #expect(right.status == 200)
        #expect(try await serve.request("GET", "/healthz").status == 200)
        #expect(try await serve.request("GET", "/metrics").status == 401)
        #expect(await serve.terminate() == 0)
        #expect(!serve.log().contains("second-key"))
        #expect(!serve.log().contains("first-kez"))
    }

    @Test("Given a non-loopback address and no keys, when serve starts, then it refuses with one line")
    func refusesOpenNetworkWithoutKeys() async throws {
        let folder = try TemporaryFolder()
        let result = try await NarrateProcess.narrate(["serve", "--host", "0.0.0.0", "--port", "0"], in: folder.url)
        #expect(result.status != 0)
        #expect(result.stderr.contains("--allow-unauthenticated"))
    }

    @Test("Given a default voice that names a file, when serve starts, then it refuses, naming no folder")
    func refusesDefaultVoiceFile() async throws {
        let folder = try TemporaryFolder()
        let result = try await NarrateProcess.narrate(["serve", "--port", "0", "--voice", folder.url.path + "/joe.onnx"], in: folder.url)
        #expect(result.status != 0)
        #expect(result.stderr.contains("--voice 'joe.onnx' names a file"), "\(result.stderr)")
        #expect(!result.stderr.contains(folder.url.path))
    }

    @Test("Given a response's ETag, when it is asked for again with If-None-Match, then the answer is 304")
    func entityTags() async throws {
        let serve = try await ServeProcess.start()
        let first = try await serve.speech("Tagged speech.", format: "mp3")
        let tag = try #require(first.header("ETag"))
        let again = try await serve.speech("Tagged speech.", format: "mp3")
        #expect(again.header("ETag") == tag)
        let other = try await serve.speech("Tagged speech.", format: "flac")
        #expect(other.header("ETag") != tag)
        let notModified = try await serve.speech("Tagged speech.", format: "mp3", headers: ["If-None-Match": tag])
        #expect(notModified.status == 304)
        #expect(notModified.body.isEmpty)
    }

    @Test("Given eSpeak crashing on a text, when it is asked for, then that request gets a JSON 500 and the next is served")
    func crashCostsOneRequest() async throws {
        let serve = try await ServeProcess.start(environment: ["NARRATE_WORKER_CRASH_ON": "CRASHME"])
        let crashed = try await serve.speech("This CRASHME text brings eSpeak down.")
        #expect(crashed.status == 500)
        #expect(crashed.errorCode == "synthesis_failed")
        let next = try await serve.speech("The next request is served.")
        #expect(next.status == 200)
        #expect(await serve.terminate() == 0)
    }

    @Test("Given a worker killed in the middle of a request, when it dies, then a new worker speaks that request and the service goes on")
    func killedWorker() async throws {
        // The text hangs its first process only (the hook's flag file), so the worker has it in hand when killed.
        let flag = FileManager.default.temporaryDirectory.appendingPathComponent("narrate-hung-once-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: flag) }
        let serve = try await ServeProcess.start(
            ["--workers", "1"], environment: ["NARRATE_WORKER_HANG_ON": "HANGME", "NARRATE_WORKER_HOOKS_ONCE": flag, "NARRATE_ENGINE_TIMEOUT": "60"])
        let hanging = Task { try await serve.speech("This HANGME text hangs its first worker.") }
        // The worker gets the text; then it is killed.
        while !FileManager.default.fileExists(atPath: flag) { try await Task.sleep(for: .milliseconds(50)) }
        let workers = serve.workerProcessIDs()
        #expect(!workers.isEmpty)
        for pid in workers { kill(pid, SIGKILL) }
        let retried = try await hanging.value
        #expect(retried.status == 200)
        #expect(retried.body.count > 44)
        let next = try await serve.speech("Served by a new worker.")
        #expect(next.status == 200)
        let ready = try await serve.request("GET", "/readyz")
        #expect(ready.status == 200)
        #expect((ready.json?["restarts"] as? Int ?? 0) >= 1)
        #expect(await serve.terminate() == 0)
    }

    @Test("Given every slot busy and the waiting line full, when one more request comes, then it gets 429 with Retry-After")
    func fullQueue() async throws {
        // The hung text's deadline is long enough that a loaded machine fills the line first.
        let serve = try await ServeProcess.start(["--workers", "1", "--queue", "1"], environment: ["NARRATE_WORKER_HANG_ON": "HANGME", "NARRATE_ENGINE_TIMEOUT": "20"])
        let busy = Task { try await serve.speech("The HANGME text holds the only slot.") }
        try await Task.sleep(for: .milliseconds(300))
        let waiting = Task { try await serve.speech("This one waits its turn.") }
        // Until the second is in line.
        // A watchdog of minutes: the depth is an event the service reports.
        for _ in 0..<3_000 {
            let metrics = String(decoding: try await serve.request("GET", "/metrics").body, as: UTF8.self)
            if metrics.contains("narrate_queue_depth 1") { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        let refused = try await serve.speech("And this one is refused.")
        #expect(refused.status == 429)
        #expect(refused.header("Retry-After") == "1")
        #expect((refused.json?["error"] as? [String: Any])?["type"] as? String == "rate_limit_error")
        // The hung one fails at its deadline, and the waiting one is served after it.
        #expect(try await busy.value.status == 500)
        #expect(try await waiting.value.status == 200)
    }

    @Test("Given a request waiting for a slot, when its client hangs up, then it leaves the queue while the slot is still held")
    func hangUpLeavesQueue() async throws {
        // The held text hangs for its whole 300 s deadline: the queue must empty before that.
        let serve = try await ServeProcess.start(["--workers", "1", "--queue", "4"], environment: ["NARRATE_WORKER_HANG_ON": "HANGME", "NARRATE_ENGINE_TIMEOUT": "300"])
        let finished = Flag()
        let busy = Task {
            defer { finished.set() }
            return try await serve.speech("The HANGME text holds the only slot.")
        }
        try await Task.sleep(for: .milliseconds(300))
        let body = try JSONSerialization.data(withJSONObject: ["model": "tts-1", "input": "Nobody waits for this.", "voice": "alloy"])
        var socket: RawHTTP? = try RawHTTP(port: serve.port)
        try socket?.send("POST /v1/audio/speech HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n", body)
        #expect(try await queueDepth(serve, becomes: 1))
        socket = nil  // closes the connection
        #expect(try await queueDepth(serve, becomes: 0))
        // The order, not a clock: the queue emptied while the held request still held its slot.
        #expect(!finished.isSet)
        busy.cancel()
    }

    /// Set once, read from any task.
    final class Flag: Sendable {
        private let state = Mutex(false)
        func set() { state.withLock { $0 = true } }
        var isSet: Bool { state.withLock { $0 } }
    }

    private func queueDepth(_ serve: ServeProcess, becomes depth: Int) async throws -> Bool {
        // A watchdog of minutes: the depth is an event the service reports.
        for _ in 0..<3_000 {
            let metrics = String(decoding: try await serve.request("GET", "/metrics").body, as: UTF8.self)
            if metrics.contains("narrate_queue_depth \(depth).0\n") { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    @Test("Given several requests at once, when they are synthesized side by side, then each equals its own narrate say")
    func concurrentRequestsAreExact() async throws {
        let serve = try await ServeProcess.start(["--workers", "2"])
        let texts = (1...6).map { "Concurrent request number \($0) says its own words, \(String(repeating: "and more ", count: $0))." }
        let replies = try await withThrowingTaskGroup(of: (Int, Data).self) { group in
            for (index, text) in texts.enumerated() {
                group.addTask { (index, try await serve.speech(text, voice: index.isMultiple(of: 2) ? "alloy" : "nova").body) }
            }
            var all: [Int: Data] = [:]
            for try await (index, body) in group { all[index] = body }
            return all
        }
        for (index, text) in texts.enumerated() {
            let name = "say\(index).wav"
            try await NarrateProcess.narrate(["say", text, "--voice", index.isMultiple(of: 2) ? "alloy" : "nova", "-o", serve.folder.path(name), "--no-cache"], in: serve.folder.url)
            #expect(identical(try WAVFile(try #require(replies[index])).data, try WAVFile(path: serve.folder.path(name)).data), "request \(index)")
        }
    }

    @Test("Given a request in flight, when SIGTERM comes, then the request completes and serve exits 0")
    func gracefulShutdown() async throws {
        let serve = try await ServeProcess.start(["--workers", "1"])
        let sentence = "This sentence is one of many in a long text that takes a while to speak. "
        let text = String(repeating: sentence, count: 40)
        let body = try JSONSerialization.data(withJSONObject: ["model": "tts-1", "input": text, "voice": "alloy", "response_format": "wav"])
        let socket = try RawHTTP(port: serve.port)
        try socket.send("POST /v1/audio/speech HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n", body)
        let head = try socket.readHead()
        #expect(head.hasPrefix("HTTP/1.1 200"))
        kill(serve.process.processIdentifier, SIGTERM)
        let audio = try socket.readChunkedBody()
        let wav = try WAVFile(audio)
        #expect(wav.duration > 60)
        #expect(await serve.terminate() == 0)
        #expect(serve.log().contains("POST /v1/audio/speech 200"))
    }

    @Test("Given a page nobody has asked for, when four clients ask at once, then it is rendered once and all get the same bytes")
    func concurrentFirstRenders() async throws {
        let serve = try await ServeProcess.start()
        let book = try Data(contentsOf: URL(fileURLWithPath: try NarrateProcess.corpusFile("epub/wasteland.epub")))
        let id = try #require(try await serve.request("POST", "/v1/books?filename=wasteland.epub", body: book).json?["id"] as? String)
        let bodies = try await withThrowingTaskGroup(of: Data.self) { group in
            for _ in 0..<4 { group.addTask { try await serve.request("GET", "/v1/books/\(id)/pages/3/audio?format=mp3").body } }
            var all: [Data] = []
            for try await body in group { all.append(body) }
            return all
        }
        #expect(bodies.count == 4)
        #expect(bodies.allSatisfy { identical($0, bodies[0]) && !$0.isEmpty })
        // One rendering: every chunk of the page was a miss once, and none was looked up again.
        let metrics = String(decoding: try await serve.request("GET", "/metrics").body, as: UTF8.self)
        #expect(metrics.contains("narrate_cache_hits_total 0\n"), "\(metrics.split(separator: "\n").filter { $0.hasPrefix("narrate_cache") })")
        #expect(!metrics.contains("narrate_cache_misses_total 0\n"))
    }

    @Test("Given an uploaded book, when a page's audio is asked for with a Range, then 206 gives exactly those bytes")
    func pageAudioRanges() async throws {
        let serve = try await ServeProcess.start()
        let book = try Data(contentsOf: URL(fileURLWithPath: try NarrateProcess.corpusFile("epub/wasteland.epub")))
        let added = try await serve.request("POST", "/v1/books?filename=wasteland.epub", body: book)
        #expect(added.status == 201)
        let id = try #require(added.json?["id"] as? String)
        let whole = try await serve.request("GET", "/v1/books/\(id)/pages/2/audio?format=wav")
        #expect(whole.status == 200)
        let tag = try #require(whole.header("ETag"))
        let part = try await serve.request("GET", "/v1/books/\(id)/pages/2/audio?format=wav", headers: ["Range": "bytes=100-199"])
        #expect(part.status == 206)
        #expect(part.header("Content-Range") == "bytes 100-199/\(whole.body.count)")
        #expect(identical(part.body, whole.body.subdata(in: 100..<200)))
        let outside = try await serve.request("GET", "/v1/books/\(id)/pages/2/audio?format=wav", headers: ["Range": "bytes=\(whole.body.count + 10)-"])
        #expect(outside.status == 416)
        let cached = try await serve.request("GET", "/v1/books/\(id)/pages/2/audio?format=wav", headers: ["If-None-Match": tag])
        #expect(cached.status == 304)
        // The page's wav is what narrate page writes.
        try await NarrateProcess.narrate(["page", try NarrateProcess.corpusFile("epub/wasteland.epub"), "2", "-o", serve.folder.path("page2.wav"), "--library", serve.folder.path("library.sqlite"), "--cache-dir", serve.folder.path("cache")], in: serve.folder.url)
        #expect(identical(try WAVFile(whole.body).data, try WAVFile(path: serve.folder.path("page2.wav")).data))
        let pastEnd = try await serve.request("GET", "/v1/books/\(id)/pages/999/audio")
        #expect(pastEnd.status == 404)
        // The rendered page files (the audio and its timing) are derived from the cache, and cleared with it.
        let responses = serve.folder.path("cache/responses")
        #expect(try FileManager.default.contentsOfDirectory(atPath: responses).map { ($0 as NSString).pathExtension }.sorted() == ["json", "wav"])
        try await NarrateProcess.narrate(["cache", "clear", "--cache-dir", serve.folder.path("cache")], in: serve.folder.url)
        #expect(try FileManager.default.contentsOfDirectory(atPath: responses).isEmpty)
    }
}
