import HTTPTypes
import NIOCore
import HummingbirdTesting
import Testing
@testable import NarrateServer

/// `GET /v1/models`, `GET /v1/models/{id}`, `GET /v1/audio/voices`.
@Suite("Catalog routes")
struct CatalogRouteTests {
    @Test("Given the service, when the models are listed, then OpenAI's list holds each model Narrate answers to")
    func models() async throws {
        try await RouteTestServer().test { client in
            let response = try await client.get("/v1/models")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
            let json = try #require(response.json)
            #expect(json["object"] as? String == "list")
            let data = try #require(json["data"] as? [[String: Any]])
            #expect(data.map { $0["id"] as? String } == ["tts-1", "tts-1-hd", "gpt-4o-mini-tts", "narrate"])
            #expect(data.allSatisfy { $0["object"] as? String == "model" && $0["owned_by"] as? String == "narrate" })
        }
    }

    @Test("Given a model id, when it is asked for, then it is described; an unknown one is 404 not_found")
    func model() async throws {
        try await RouteTestServer().test { client in
            let known = try await client.get("/v1/models/tts-1-hd")
            #expect(known.status == .ok)
            #expect(known.json?["id"] as? String == "tts-1-hd")
            let unknown = try await client.get("/v1/models/tts-9")
            #expect(unknown.status == .notFound)
            #expect(unknown.apiError?.type == "not_found_error")
            #expect(unknown.apiError?.code == "not_found")
            #expect(unknown.apiError?.keys == APIErrorBody.openAIKeys)
        }
    }

    @Test("Given the service, when the voices are listed, then OpenAI's names come with the voice they speak with, and eSpeak's own voices follow")
    func voices() async throws {
        try await RouteTestServer().test { client in
            let response = try await client.get("/v1/audio/voices")
            #expect(response.status == .ok)
            let voices = try #require(response.json?["voices"] as? [[String: Any]])
            let byName = Dictionary(voices.map { ($0["name"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
            for name in OpenAIVoices.names {
                #expect(byName[name]?["kind"] as? String == "openai", "\(name)")
                #expect((byName[name]?["voice"] as? String)?.isEmpty == false, "\(name)")
            }
            let espeak = voices.filter { $0["kind"] as? String == "espeak" }
            #expect(espeak.count > 50)
            // An eSpeak voice is named by its file (`gmw/en-US`) and tagged with its language.
            #expect(espeak.contains { $0["language"] as? String == "en-us" && ($0["voice"] as? String)?.hasSuffix("/en-US") == true })
            // eSpeak's voices come after every preset and OpenAI name.
            let kinds = voices.map { $0["kind"] as? String ?? "" }
            #expect(kinds.drop { $0 != "espeak" }.allSatisfy { $0 == "espeak" })
        }
    }
}
