import Foundation
import Testing

/// `--remote`: the built binary speaking through another `narrate serve` (an OpenAI-compatible
/// speech API), compared with what it says itself. (Faults are injected against the synthesizer
/// in `RemoteSpeechSynthesizerTests`.)
@Suite("The remote engine, end to end", .serialized)
struct RemoteEngineEndToEndTests {
    static let key = "sk-e2e-SECRET-7f3a9c"
    static let text = "The remote engine speaks through another service. It must sound exactly like the local one, sample for sample."

    /// An upstream that wants `key`.
    static func upstream() async throws -> ServeProcess {
        let folder = try TemporaryFolder()
        try (key + "\n").write(toFile: folder.path("keys"), atomically: true, encoding: .utf8)
        return try await ServeProcess.start(["--api-key-file", folder.path("keys")], folder: folder)
    }

    static func base(_ serve: ServeProcess) -> String { "http://127.0.0.1:\(serve.port)/v1" }

    /// Every byte of every file below `path`, for looking for the key.
    static func contents(below path: String) -> Data {
        var all = Data()
        for name in (FileManager.default.enumerator(atPath: path)?.allObjects as? [String]) ?? [] {
            all.append(FileManager.default.contents(atPath: path + "/" + name) ?? Data())
        }
        return all
    }

    @Test("Given narrate serve as the API, when say speaks through it, then the samples equal a local say, and a second run is all cache")
    func sayThroughServe() async throws {
        let upstream = try await Self.upstream()
        let folder = try TemporaryFolder()
        let environment = ["NARRATE_API_KEY": Self.key]

        let remote = try await NarrateProcess.narrate(
            ["say", Self.text, "--remote", Self.base(upstream), "--remote-voice", "en-us", "--rate", "210", "-o", "remote.wav", "--cache-dir", folder.path("cache"), "--verbose"],
            in: folder.url, environment: environment)
        #expect(remote.status == 0, "\(remote.stderr)")
        try await NarrateProcess.narrate(["say", Self.text, "--voice", "en-us", "--rate", "210", "-o", "local.wav", "--no-cache"], in: folder.url)
        try expectSameSamples("remote.wav", "local.wav", in: folder)
        let lines = remote.stderr.split(separator: "\n")
        #expect(lines.last == "narrate: remote: \(Self.text.unicodeScalars.count) characters sent to 127.0.0.1:\(upstream.port)/v1, 0 from the cache.")

        let again = try await NarrateProcess.narrate(
            ["say", Self.text, "--remote", Self.base(upstream), "--remote-voice", "en-us", "--rate", "210", "-o", "again.wav", "--cache-dir", folder.path("cache")],
            in: folder.url, environment: environment)
        #expect(again.stderr.split(separator: "\n").last == "narrate: remote: 0 characters sent to 127.0.0.1:\(upstream.port)/v1, \(Self.text.unicodeScalars.count) from the cache.")

        // The key went in the Authorization header only.
        let secret = Data(Self.key.utf8)
        #expect(!remote.stderr.contains(Self.key) && !again.stderr.contains(Self.key))
        #expect(Self.contents(below: folder.path("cache")).range(of: secret) == nil)
        #expect(!upstream.log().contains(Self.key))
    }

    @Test("Given a voice preset that names the API, when say speaks with it, then the API speaks, as a local say of its voice")
    func presetNamesTheAPI() async throws {
        let upstream = try await Self.upstream()
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path("voices"), withIntermediateDirectories: true)
        let preset = #"{"name": "upstream", "voice": "en-us", "remote": {"url": "\#(Self.base(upstream))", "voice": "en-us"}}"#
        try preset.write(toFile: folder.path("voices/upstream.json"), atomically: true, encoding: .utf8)

        let remote = try await NarrateProcess.narrate(
            ["say", Self.text, "--voice", "upstream", "-o", "remote.wav", "--cache-dir", folder.path("cache")],
            in: folder.url, environment: ["NARRATE_API_KEY": Self.key, "NARRATE_VOICES_DIR": folder.path("voices")])
        #expect(remote.status == 0, "\(remote.stderr)")
        #expect(remote.stderr.split(separator: "\n").last?.hasPrefix("narrate: remote: \(Self.text.unicodeScalars.count) characters sent to 127.0.0.1:\(upstream.port)/v1") == true)
        try await NarrateProcess.narrate(["say", Self.text, "--voice", "en-us", "-o", "local.wav", "--no-cache"], in: folder.url)
        try expectSameSamples("remote.wav", "local.wav", in: folder)
    }

    @Test("Given a book, when it is exported through the API, then each file equals the local export, subtitles follow sentences, and the manifest says so without the key")
    func bookThroughServe() async throws {
        let upstream = try await Self.upstream()
        let folder = try TemporaryFolder()
        let book = try NarrateProcess.corpusFile("txt/pg1342-pride-and-prejudice-cp1252.txt")
        let environment = ["NARRATE_API_KEY": Self.key]
        let common = [book, "--pages", "2-3", "--split", "page", "--format", "wav", "--subtitles", "vtt", "--library", folder.path("library.sqlite")]

        let remote = try await NarrateProcess.narrate(
            ["book"] + common + ["-o", "remote", "--remote", Self.base(upstream), "--remote-voice", "en-us", "--jobs", "4", "--cache-dir", folder.path("cache")],
            in: folder.url, environment: environment)
        #expect(remote.status == 0, "\(remote.stderr)")
        try await NarrateProcess.narrate(["book"] + common + ["-o", "local", "--voice", "en-us", "--cache-dir", folder.path("local-cache")], in: folder.url)

        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path("remote")).filter { $0.hasSuffix(".wav") }.sorted()
        #expect(files.count == 2)
        for file in files {
            try expectSameSamples("remote/" + file, "local/" + file, in: folder)
        }
        let manifestData = try Data(contentsOf: URL(fileURLWithPath: folder.path("remote/manifest.json")))
        let manifest = try #require(try JSONSerialization.jsonObject(with: manifestData) as? [String: Any])
        let engine = try #require(manifest["engine"] as? [String: Any])
        #expect(engine["timing"] as? String == "sentences")
        #expect(engine["version"] as? String == "127.0.0.1:\(upstream.port)/v1 model=tts-1 voice=en-us format=wav")
        #expect(manifestData.range(of: Data(Self.key.utf8)) == nil)
        let vtt = try String(contentsOfFile: folder.path("remote/" + files[0].replacingOccurrences(of: ".wav", with: ".vtt")), encoding: .utf8)
        #expect(vtt.hasPrefix("WEBVTT"))
        #expect(vtt.contains(" --> "))
        #expect(remote.stderr.split(separator: "\n").last?.hasPrefix("narrate: remote: ") == true)

        // A run again: nothing is sent.
        let again = try await NarrateProcess.narrate(
            ["book"] + common + ["-o", "remote", "--remote", Self.base(upstream), "--remote-voice", "en-us", "--cache-dir", folder.path("cache")],
            in: folder.url, environment: environment)
        #expect(again.stderr.contains("0 written, 2 already done"))
        #expect(again.stderr.split(separator: "\n").last?.hasPrefix("narrate: remote: 0 characters sent") == true)
    }

    @Test("Given a lexicon, when a book is exported through the API twice, then the second run sends nothing: the API is keyed without the lexicon it cannot apply")
    func lexiconIsNotInTheKey() async throws {
        let upstream = try await Self.upstream()
        let folder = try TemporaryFolder()
        let book = try NarrateProcess.corpusFile("txt/pg1342-pride-and-prejudice-cp1252.txt")
        let lexicon = NarrateProcess.packageRoot.appendingPathComponent("Tests/Fixtures/pronunciation-book/OEBPS/lexicons/terms-ipa.pls").path
        let arguments = ["book", book, "--pages", "2", "--split", "page", "--format", "wav", "-o", "out", "--library", folder.path("library.sqlite"),
                         "--lexicon", lexicon, "--remote", Self.base(upstream), "--remote-voice", "en-us", "--cache-dir", folder.path("cache")]
        let first = try await NarrateProcess.narrate(arguments, in: folder.url, environment: ["NARRATE_API_KEY": Self.key])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("lexicons are not applied by the remote speech engine"))
        try FileManager.default.removeItem(atPath: folder.path("out"))
        let second = try await NarrateProcess.narrate(arguments, in: folder.url, environment: ["NARRATE_API_KEY": Self.key])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.split(separator: "\n").last?.hasPrefix("narrate: remote: 0 characters sent") == true, "\(second.stderr)")
    }

    @Test("Given --max-characters below what a book needs, when it is exported, then it stops before sending past the cap, says so on one line, and writes no file")
    func characterCap() async throws {
        let upstream = try await Self.upstream()
        let folder = try TemporaryFolder()
        let book = try NarrateProcess.corpusFile("txt/pg1342-pride-and-prejudice-cp1252.txt")
        let result = try await NarrateProcess.narrate(
            ["book", book, "--pages", "2-3", "--split", "page", "--format", "wav", "-o", "out", "--library", folder.path("library.sqlite"),
             "--remote", Self.base(upstream), "--remote-voice", "en-us", "--max-characters", "500", "--jobs", "1", "--cache-dir", folder.path("cache")],
            in: folder.url, environment: ["NARRATE_API_KEY": Self.key])
        #expect(result.status != 0)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("narrate: error: ") && $0.contains("--max-characters 500") })
        let last = try #require(lines.last)
        #expect(last.hasPrefix("narrate: remote: "))
        #expect(last.hasSuffix("(cap 500)."))
        let sent = Int(last.split(separator: " ")[2].replacingOccurrences(of: ",", with: "")) ?? .max
        #expect(sent <= 500)
        let written = (try? FileManager.default.contentsOfDirectory(atPath: folder.path("out"))) ?? []
        #expect(!written.contains { $0.hasSuffix(".wav") })
    }

    @Test("Given a wrong key, when say runs, then one line says the key was refused, without showing it, and nothing is written")
    func wrongKey() async throws {
        let upstream = try await Self.upstream()
        let folder = try TemporaryFolder()
        let wrong = "sk-WRONG-key-5150"
        let result = try await NarrateProcess.narrate(
            ["say", "Hello.", "--remote", Self.base(upstream), "-o", "out.wav", "--verbose", "--cache-dir", folder.path("cache")],
            in: folder.url, environment: ["NARRATE_API_KEY": wrong])
        #expect(result.status == 1)
        #expect(result.stderr.contains("narrate: error: The speech API refused the request (HTTP 401): the API key was refused"))
        #expect(!result.stderr.contains(wrong))
        #expect(!FileManager.default.fileExists(atPath: folder.path("out.wav")))
    }

    @Test("Given an API that is down and --fallback espeak, when say runs, then eSpeak speaks it, warning once, exactly as a local say")
    func fallback() async throws {
        let folder = try TemporaryFolder()
        let result = try await NarrateProcess.narrate(
            ["say", Self.text, "--remote", "http://127.0.0.1:1/v1", "--fallback", "espeak", "-o", "fallback.wav", "--cache-dir", folder.path("cache")],
            in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.components(separatedBy: "spoken by eSpeak NG").count == 3)  // the warning, and the last line
        try await NarrateProcess.narrate(["say", Self.text, "-o", "local.wav", "--no-cache"], in: folder.url)
        try expectSameSamples("fallback.wav", "local.wav", in: folder)
    }

    @Test("Given serve with an upstream API, when a client asks it, then it answers with the upstream's audio, its workers never see the key, and eSpeak answers when the upstream is gone")
    func serveAsUpstream() async throws {
        let upstream = try await Self.upstream()
        let front = try await ServeProcess.start(["--remote", Self.base(upstream), "--remote-voice", "en-us", "--fallback", "espeak"], environment: ["NARRATE_API_KEY": Self.key])
        let ready = try await front.request("GET", "/readyz")
        #expect(ready.status == 200)
        let workers = front.workerProcessIDs()
        #expect(!workers.isEmpty)
        for pid in workers {
            let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()
            let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ") ?? Data()
            #expect(command.range(of: Data(Self.key.utf8)) == nil)
            #expect(environ.range(of: Data(Self.key.utf8)) == nil)
        }

        let reply = try await front.speech(Self.text, voice: "alloy")
        #expect(reply.status == 200)
        try await NarrateProcess.narrate(["say", Self.text, "--voice", "en-us", "-o", front.folder.path("local.wav"), "--no-cache"], in: front.folder.url)
        #expect(identical(try WAVFile(reply.body).data, try WAVFile(path: front.folder.path("local.wav")).data))

        #expect(await upstream.terminate() == 0)
        let fallback = try await front.speech("Now the upstream is gone.", voice: "alloy")
        #expect(fallback.status == 200)
        #expect(!front.log().contains(Self.key))
        #expect(await front.terminate() == 0)
    }
}
