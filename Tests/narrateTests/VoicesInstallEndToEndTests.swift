import Foundation
import Glibc
import Testing

/// `narrate voices install` run as a user runs it, against a local server laid out as Piper's
/// voices repository; `narrate voices --json` then lists the voice.
@Suite struct VoicesInstallEndToEndTests {
    let folder: TemporaryFolder
    let server: Process
    let baseURL: String
    /// SHA-256 of the served model, in hex.
    let modelSHA256: String

    /// Publishes a small fake voice (any bytes for the model, a real configuration's shape, and
    /// voices.json with their sizes and MD5s) and serves it; prints its port and the model's
    /// SHA-256 on one line.
    static let serverScript = #"""
        import functools, hashlib, http.server, json, os, signal, sys
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        root = sys.argv[1]
        folder = "en/en_US/test/medium"
        os.makedirs(os.path.join(root, folder), exist_ok=True)
        model = bytes((i * 131 + (i >> 8)) & 255 for i in range(200_000))
        config = json.dumps({
            "audio": {"sample_rate": 22050, "quality": "medium"}, "espeak": {"voice": "en-us"},
            "inference": {"noise_scale": 0.667, "length_scale": 1, "noise_w": 0.8},
            "phoneme_type": "espeak", "phoneme_id_map": {"_": [0], "^": [1], "$": [2], " ": [3], "a": [14], "b": [15]},
            "num_speakers": 1, "speaker_id_map": {}, "language": {"code": "en_US"},
        }).encode()
        files = {}
        for name, data in [("en_US-test-medium.onnx", model), ("en_US-test-medium.onnx.json", config)]:
            open(os.path.join(root, folder, name), "wb").write(data)
            files[folder + "/" + name] = {"size_bytes": len(data), "md5_digest": hashlib.md5(data).hexdigest()}
        json.dump({"en_US-test-medium": {"key": "en_US-test-medium", "quality": "medium", "files": files}}, open(os.path.join(root, "voices.json"), "w"))
        handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=root)
        handler.func.log_message = lambda *args: None
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        print(server.server_address[1], hashlib.sha256(model).hexdigest(), flush=True)
        server.serve_forever()
        """#

    init() throws {
        folder = try TemporaryFolder()
        let script = folder.path("piper-voices-server.py")
        try Self.serverScript.write(toFile: script, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: folder.path("repository"), withIntermediateDirectories: true)
        server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = ["python3", script, folder.path("repository")]
        let output = Pipe()
        server.standardOutput = output
        server.standardError = FileHandle.nullDevice
        try server.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let more = output.fileHandleForReading.availableData
            if more.isEmpty { break }
            line += more
        }
        let fields = String(decoding: line, as: UTF8.self).split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard fields.count == 2, let port = Int(fields[0]) else {
            kill(server.processIdentifier, SIGKILL)
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "the test server did not start (is python3 installed?)"])
        }
        baseURL = "http://127.0.0.1:\(port)"
        modelSHA256 = fields[1]
    }

    // A struct has no deinit: each test stops the server itself.
    private func stopServer() {
        kill(server.processIdentifier, SIGKILL)
        server.waitUntilExit()
    }

    @Test("voices install fetches a voice by name into --to, and voices --json lists it from NARRATE_VOICES_DIR")
    func installThenList() async throws {
        defer { stopServer() }
        // Given
        let voices = folder.path("voices")

        // When
        let installed = try await NarrateProcess.narrate(["voices", "install", "en_US-test-medium", "--from", baseURL, "--to", voices], in: folder.url)

        // Then
        let output = String(decoding: installed.stdout, as: UTF8.self)
        #expect(installed.status == 0, "\(installed.stderr)")
        #expect(output.contains("Installed: en_US-test-medium (medium, 1 speaker, 22050 Hz) in \(voices): narrate say --voice en_US-test-medium \"Hello\""))
        #expect(output.contains("Model SHA-256: \(modelSHA256) (MD5 verified)"))
        #expect(installed.stderr.contains("Downloaded en_US-test-medium.onnx ("), "one line per file when standard error is not a terminal")
        #expect(try FileManager.default.contentsOfDirectory(atPath: voices).sorted() == ["en_US-test-medium.onnx", "en_US-test-medium.onnx.json"])

        // When
        let listed = try await NarrateProcess.narrate(["voices", "--json"], in: folder.url, environment: ["NARRATE_VOICES_DIR": voices])

        // Then
        #expect(listed.status == 0, "\(listed.stderr)")
        let list = try #require(try JSONSerialization.jsonObject(with: listed.stdout) as? [[String: Any]])
        let voice = try #require(list.first { $0["name"] as? String == "en_US-test-medium" })
        let piper = try #require(voice["piper"] as? [String: Any])
        #expect(piper["model"] as? String == voices + "/en_US-test-medium.onnx")
        #expect(piper["sampleRate"] as? Int == 22_050)

        // When
        let again = try await NarrateProcess.narrate(["voices", "install", "en_US-test-medium", "--from", baseURL, "--to", voices, "--quiet"], in: folder.url)

        // Then
        #expect(again.status == 0, "\(again.stderr)")
        #expect(String(decoding: again.stdout, as: UTF8.self).hasPrefix("Already installed (same files): en_US-test-medium"))
        #expect(again.stderr.isEmpty)
    }

    @Test("voices install of a name the repository lacks fails with one line suggesting close names, and installs nothing")
    func unknownName() async throws {
        defer { stopServer() }
        // When
        let result = try await NarrateProcess.narrate(["voices", "install", "en_US-tset-medium", "--from", baseURL, "--to", folder.path("voices")], in: folder.url)

        // Then
        #expect(result.status == 1)
        #expect(result.stderr == "narrate: error: The Piper voices repository \(baseURL) has no voice 'en_US-tset-medium'. Did you mean en_US-test-medium?\n")
        #expect(!FileManager.default.fileExists(atPath: folder.path("voices/en_US-tset-medium.onnx")))
    }
}
