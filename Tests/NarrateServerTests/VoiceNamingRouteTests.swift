import Foundation
import HTTPTypes
import NarrateKit
import HummingbirdTesting
import Testing
@testable import NarrateServer

/// A remote client names voices, never files: speech, page audio and Wyoming refuse every
/// voice that names a file, answer it as unknown without a byte of the server's folders, and
/// the service's log records each refusal with the client's input escaped.
@Suite("Voices by name only")
struct VoiceNamingRouteTests {
    /// A Piper voice configuration's shape (the model beside it is any bytes: nothing may load it).
    static let config = Data(#"""
        {"audio": {"sample_rate": 22050, "quality": "medium"}, "espeak": {"voice": "en-us"},
         "inference": {"noise_scale": 0.667, "length_scale": 1, "noise_w": 0.8}, "phoneme_type": "espeak", "phoneme_map": {},
         "phoneme_id_map": {"_": [0], "^": [1], "$": [2], " ": [3], "a": [14]}, "num_symbols": 256, "num_speakers": 1,
         "speaker_id_map": {}, "language": {"code": "en_US", "family": "en"}, "dataset": "joe"}
        """#.utf8)

    /// A server with a model and its configuration outside its voice folders (`elsewhere/joe.onnx`),
    /// a model without one (`elsewhere/junk.onnx`), and the same voice installed in its voice
    /// folder as `en_US-joe-medium`.
    static func server(logger: LogRecorder) throws -> RouteTestServer {
        let server = try RouteTestServer(logger: logger.logger)
        let elsewhere = server.folder.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        for model in [elsewhere.appendingPathComponent("joe.onnx"), server.voicesFolder.appendingPathComponent("en_US-joe-medium.onnx")] {
            try Data("not a model".utf8).write(to: model)
            try config.write(to: URL(fileURLWithPath: model.path + ".json"))
        }
        try Data("not a model".utf8).write(to: elsewhere.appendingPathComponent("junk.onnx"))
        return server
    }

    /// Each way a client might name a file, and what the refusal may show of it.
    static func fileNames(_ server: RouteTestServer) -> [(name: String, shown: String)] {
        let joe = server.folder.appendingPathComponent("elsewhere/joe.onnx").path
        let depth = FileManager.default.currentDirectoryPath.split(separator: "/").count
        return [
            (joe, "joe.onnx"),
            (String(repeating: "../", count: depth + 2) + joe.dropFirst(), "joe.onnx"),
            (server.folder.appendingPathComponent("elsewhere/nothere.onnx").path, "nothere.onnx"),
            (server.folder.appendingPathComponent("elsewhere/junk.onnx").path, "junk.onnx"),
            (server.voicesFolder.appendingPathComponent("en_US-joe-medium.onnx").path, "en_US-joe-medium.onnx"),
            ("/dev/zero", "zero"),
            ("alloy\u{0}", "alloy\\u{0}"),
            ("\u{1B}[2J\u{1B}[31mjoe", "\\u{1B}[2J\\u{1B}[31mjoe"),
            (String(repeating: "v", count: 10_240), String(repeating: "v", count: 64) + "\u{2026}"),
        ]
    }

    /// Whether `text` holds any of the server's folders (or `/dev`).
    static func namesServerFolder(_ text: String, _ server: RouteTestServer) -> Bool {
        let folders = [server.folder.path, server.folder.resolvingSymlinksInPath().path, NSTemporaryDirectory(), FileManager.default.currentDirectoryPath, "/dev", "elsewhere/"]
            + server.configuration.voiceDirectories + [server.configuration.cacheDirectory ?? "/", server.configuration.libraryPath]
        return folders.contains { !$0.isEmpty && $0 != "/" && text.contains($0) }
    }

    @Test("Given voices that name files, when speech is asked for, then each is 400 voice_not_found naming the voice as given, and no body holds a server folder")
    func speech() async throws {
        let log = LogRecorder()
        let server = try Self.server(logger: log)
        try await server.test { client in
            for (name, shown) in Self.fileNames(server) {
                let response = try await client.speech("Hello.", voice: name, format: "wav")
                let body = String(decoding: response.bytes, as: UTF8.self)
                #expect(response.status == .badRequest, "\(shown)")
                #expect(response.apiError?.code == "voice_not_found", "\(shown)")
                #expect(response.apiError?.param == "voice")
                #expect(response.apiError?.message?.hasPrefix("Unknown voice '\(VoiceNameRule.shown(name.lowercased()))'") == true, "\(response.apiError?.message ?? body)")
                #expect(response.apiError?.message?.contains("GET /v1/audio/voices lists them") == true)
                #expect(!Self.namesServerFolder(body, server), "\(body)")
            }
            // The installed voice's model named by path suggests its name.
            let installed = try await client.speech("Hello.", voice: server.voicesFolder.appendingPathComponent("en_US-joe-medium.onnx").path, format: "wav")
            #expect(installed.apiError?.message?.contains("Did you mean en_us-joe-medium?") == true, "\(installed.apiError?.message ?? "")")
        }
        // The log keeps each refusal, the client's raw input escaped: no control character reaches a terminal.
        let refusals = log.messages.filter { $0.contains("voice_not_found") }
        #expect(refusals.count >= Self.fileNames(server).count, "\(log.messages)")
        #expect(log.messages.allSatisfy { line in !line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } })
        #expect(refusals.contains { $0.contains("\\u{1B}[2j") })
        #expect(refusals.contains { $0.contains("alloy\\u{0}") })
    }

    @Test("Given voices that name files, when a page's timing or an export is asked for with them, then each is 400 voice_not_found without a server folder, and no export is queued")
    func timingAndExports() async throws {
        let server = try Self.server(logger: LogRecorder())
        try await server.test { client in
            let id = try await BookRouteTests.upload(client)
            for (name, shown) in Self.fileNames(server) {
                var query = URLComponents()
                query.queryItems = [URLQueryItem(name: "voice", value: name)]
                let timing = try await client.get("/v1/books/\(id)/pages/1/timing?\(query.percentEncodedQuery ?? "")")
                let timingBody = String(decoding: timing.bytes, as: UTF8.self)
                #expect(timing.status == .badRequest, "\(shown): \(timingBody)")
                #expect(timing.apiError?.code == "voice_not_found", "\(shown)")
                #expect(!Self.namesServerFolder(timingBody, server), "\(timingBody)")

                let body = try JSONSerialization.data(withJSONObject: ["format": "wav", "voice": name])
                let export = try await client.post("/v1/books/\(id)/exports", body: Array(body), headers: [.contentType: "application/json"])
                let exportBody = String(decoding: export.bytes, as: UTF8.self)
                #expect(export.status == .badRequest, "\(shown): \(exportBody)")
                #expect(export.apiError?.code == "voice_not_found", "\(shown)")
                #expect(!Self.namesServerFolder(exportBody, server), "\(exportBody)")
            }
            #expect((try await client.get("/v1/exports").json?["exports"] as? [Any])?.isEmpty == true)
        }
    }

    @Test("Given voices that name files, when a page's audio is asked for with them, then each is 400 voice_not_found without a server folder")
    func pageAudio() async throws {
        let server = try Self.server(logger: LogRecorder())
        try await server.test { client in
            let id = try await BookRouteTests.upload(client)
            for (name, shown) in Self.fileNames(server) {
                var query = URLComponents()
                query.queryItems = [URLQueryItem(name: "voice", value: name), URLQueryItem(name: "format", value: "wav")]
                let response = try await client.get("/v1/books/\(id)/pages/1/audio?\(query.percentEncodedQuery ?? "")")
                let body = String(decoding: response.bytes, as: UTF8.self)
                #expect(response.status == .badRequest, "\(shown): \(body)")
                #expect(response.apiError?.code == "voice_not_found", "\(shown)")
                #expect(!Self.namesServerFolder(body, server), "\(body)")
            }
        }
    }

    @Test("Given voices that name files, when Wyoming synthesize and a streaming synthesis name them, then each is an error event without a server folder")
    func wyoming() async throws {
        let log = LogRecorder()
        let server = try Self.server(logger: log)
        try await server.test { _ in
            try await WyomingTestClient.with(server.backend, logger: log.logger) { wyoming in
                for (name, shown) in Self.fileNames(server) {
                    let voice: [String: any Sendable] = ["name": name]
                    for events in [
                        [WyomingEvent(type: "synthesize", data: ["text": "Hello.", "voice": voice])],
                        [WyomingEvent(type: "synthesize-start", data: ["voice": voice])],
                    ] {
                        let received = try await wyoming.exchange(events, until: ["audio-stop"])
                        let error = try #require(received.last)
                        #expect(error.type == "error", "\(shown): \(received.map(\.type))")
                        #expect(error.string("code") == "voice_not_found")
                        let text = error.string("text") ?? ""
                        #expect(text.hasPrefix("Unknown voice '\(VoiceNameRule.shown(name.lowercased()))'"), "\(text)")
                        #expect(!Self.namesServerFolder(text, server), "\(text)")
                    }
                }
                // The installed voice by name is not refused (its model here is no model: it
                // fails to load, and says so by the voice's name alone).
                let named = try await wyoming.exchange(
                    [WyomingEvent(type: "synthesize", data: ["text": "Hello.", "voice": ["name": "en_US-joe-medium"] as [String: any Sendable]])], until: ["audio-stop"])
                let answer = try #require(named.last)
                #expect(answer.string("code") != "voice_not_found", "\(answer.data)")
                #expect(!Self.namesServerFolder(answer.string("text") ?? "", server), "\(answer.string("text") ?? "")")
            }
        }
        #expect(log.messages.allSatisfy { line in !line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } })
        #expect(log.messages.contains { $0.contains("wyoming 400 voice_not_found") })
    }

    @Test("Given an installed voice whose model cannot load, when a client names it, then 503 names the voice alone and the log keeps the cause")
    func brokenInstalledVoice() async throws {
        let log = LogRecorder()
        let server = try Self.server(logger: log)
        try await server.test { client in
            let response = try await client.speech("Hello.", voice: "en_US-joe-medium", format: "wav")
            let body = String(decoding: response.bytes, as: UTF8.self)
            #expect(response.status.code >= 500, "\(body)")
            #expect(!Self.namesServerFolder(body, server), "\(body)")
            #expect(body.contains("en_US-joe-medium"), "\(body)")
        }
        #expect(log.messages.contains { $0.contains("POST /v1/audio/speech 50") }, "\(log.messages)")
    }
}
