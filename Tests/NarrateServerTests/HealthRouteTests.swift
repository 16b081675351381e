import Foundation
import HTTPTypes
import NIOCore
import HummingbirdTesting
import Testing
@testable import NarrateServer

/// `GET /healthz`, `GET /readyz`, `GET /metrics`, `GET /openapi.json`.
@Suite("Health routes")
struct HealthRouteTests {
    @Test("Given the service, when /healthz is asked, then it is ok")
    func health() async throws {
        try await RouteTestServer().test { client in
            let response = try await client.get("/healthz")
            #expect(response.status == .ok)
            #expect(response.json?["status"] as? String == "ok")
        }
    }

    @Test("Given the service, when /readyz is asked, then the workers are started and counted")
    func ready() async throws {
        try await RouteTestServer().test { client in
            let response = try await client.get("/readyz")
            #expect(response.status == .ok)
            let json = try #require(response.json)
            #expect(json["status"] as? String == "ready")
            #expect((json["workers"] as? Int ?? 0) >= 1)
            #expect((json["running"] as? Int ?? 0) >= 1)
            #expect(json["restarts"] is Int)
        }
    }

    @Test("Given requests served, when /metrics is asked, then Prometheus text counts them with the queue depth")
    func metrics() async throws {
        try await RouteTestServer().test { client in
            _ = try await client.get("/v1/models")
            let response = try await client.get("/metrics")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
            let text = String(decoding: response.bytes, as: UTF8.self)
            #expect(text.contains("narrate_queue_depth"))
            #expect(text.contains("/v1/models"))
        }
    }

    @Test("Given the service, when /openapi.json is asked, then the OpenAPI 3.1 document is served as JSON")
    func openAPI() async throws {
        try await RouteTestServer().test { client in
            let response = try await client.get("/openapi.json")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json")
            #expect(response.json?["openapi"] as? String == "3.1.0")
            #expect(response.bytes == Array(OpenAPIDocument.json.utf8))
        }
    }
}
