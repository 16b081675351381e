import HTTPTypes
import NIOCore
import HummingbirdTesting
import Testing
@testable import NarrateServer

/// `ServerConfiguration.apiKeys`: a bearer key on every route but the health checks and the
/// API description.
@Suite("Auth routes")
struct AuthRouteTests {
    static func keyed() throws -> RouteTestServer {
        try RouteTestServer { $0.apiKeys = ["first-key", "second-key"] }
    }

    @Test("Given keys, when a request has none, then 401 missing_api_key with WWW-Authenticate: Bearer")
    func noKey() async throws {
        try await Self.keyed().test { client in
            let response = try await client.speech("Hello.")
            #expect(response.status == .unauthorized)
            #expect(response.headers[.wwwAuthenticate] == "Bearer")
            #expect(response.apiError?.type == "authentication_error")
            #expect(response.apiError?.code == "missing_api_key")
            #expect(response.apiError?.keys == APIErrorBody.openAIKeys)
            // Not a bearer token at all is the same as none.
            let basic = try await client.get("/v1/models", headers: [.authorization: "Basic Zmlyc3Qta2V5"])
            #expect(basic.status == .unauthorized)
            #expect(basic.apiError?.code == "missing_api_key")
        }
    }

    @Test("Given keys, when a request has a wrong one, then 401 invalid_api_key")
    func wrongKey() async throws {
        try await Self.keyed().test { client in
            for wrong in ["Bearer first-kez", "Bearer first-key-and-more", "Bearer "] {
                let response = try await client.get("/v1/models", headers: [.authorization: wrong])
                #expect(response.status == .unauthorized, "\(wrong)")
                #expect(response.headers[.wwwAuthenticate] == "Bearer")
            }
            let response = try await client.get("/v1/models", headers: [.authorization: "Bearer first-kez"])
            #expect(response.apiError?.type == "authentication_error")
            #expect(response.apiError?.code == "invalid_api_key")
        }
    }

    @Test("Given keys, when a request has any of them (the scheme in any case), then it is served")
    func rightKey() async throws {
        try await Self.keyed().test { client in
            let models = try await client.get("/v1/models", headers: [.authorization: "Bearer first-key"])
            #expect(models.status == .ok)
            let lowercase = try await client.get("/v1/models", headers: [.authorization: "bearer second-key"])
            #expect(lowercase.status == .ok)
            let speech = try await client.speech("Hello.", headers: [.authorization: "Bearer second-key"])
            #expect(speech.status == .ok)
        }
    }

    @Test("Given keys, when the health checks and the API description are asked for without one, then they answer; the metrics do not")
    func openRoutes() async throws {
        try await Self.keyed().test { client in
            for open in ["/healthz", "/readyz", "/openapi.json"] {
                let response = try await client.get(open)
                #expect(response.status == .ok, "\(open)")
            }
            let metrics = try await client.get("/metrics")
            #expect(metrics.status == .unauthorized)
            let keyed = try await client.get("/metrics", headers: [.authorization: "Bearer first-key"])
            #expect(keyed.status == .ok)
        }
    }

    @Test("Given no keys, when a request has none, then it is served")
    func noKeysConfigured() async throws {
        try await RouteTestServer().test { client in
            let models = try await client.get("/v1/models")
            #expect(models.status == .ok)
            let metrics = try await client.get("/metrics")
            #expect(metrics.status == .ok)
        }
    }
}
