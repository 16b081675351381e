import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import NarrateServer

/// The service answers its own page and real clients only: a foreign `Host` (DNS rebinding),
/// another site's request (a cross-site `Origin` or `Sec-Fetch-Site`) and a JSON body that is
/// not `application/json` are refused before any route runs.
@Suite("Site guard: Host, Origin, Sec-Fetch-Site and body types")
struct SiteGuardRouteTests {
    static let host = HTTPField.Name("Host")!
    static let origin = HTTPField.Name("Origin")!
    static let fetchSite = HTTPField.Name("Sec-Fetch-Site")!

    /// The routes that change state, make audio or return a book's text, for book `id`.
    static func guarded(_ id: String) -> [(method: HTTPRequest.Method, path: String, type: String?, body: String)] {
        [
            (.post, "/v1/books?filename=x.md", "text/markdown", "# A\n\nWords."),
            (.post, "/v1/books/\(id)/exports", "application/json", #"{"format": "wav"}"#),
            (.delete, "/v1/exports/some-job", nil, ""),
            (.get, "/v1/books/\(id)/pages/1/audio?voice=alloy&format=wav", nil, ""),
            (.get, "/v1/books/\(id)/pages/1/text", nil, ""),
            (.get, "/v1/books", nil, ""),
            (.post, "/v1/audio/speech", "application/json", #"{"model": "tts-1", "voice": "alloy", "input": "Hi."}"#),
        ]
    }

    static func send(_ client: some TestClientProtocol, _ route: (method: HTTPRequest.Method, path: String, type: String?, body: String), _ extra: HTTPFields) async throws -> TestResponse {
        var headers = extra
        if let type = route.type { headers[.contentType] = type }
        return try await client.execute(uri: route.path, method: route.method, headers: headers, body: route.body.isEmpty ? nil : ByteBuffer(string: route.body))
    }

    @Test("Given a foreign Host (DNS rebinding), when any route is asked, then 421 host_not_allowed and nothing runs")
    func foreignHost() async throws {
        try await RouteTestServer().test { client in
            let id = try await BookRouteTests.upload(client)
            for route in Self.guarded(id) + [(.get, "/", nil, ""), (.get, "/healthz", nil, "")] {
                let response = try await Self.send(client, route, [Self.host: "attacker.example"])
                #expect(response.status.code == 421, "\(route.method) \(route.path)")
                #expect(response.apiError?.code == "host_not_allowed", "\(route.path)")
            }
            // Nothing was added: the library still holds one book.
            #expect((try await client.get("/v1/books").json?["books"] as? [Any])?.count == 1)
        }
    }

    @Test("Given another site's Origin or Sec-Fetch-Site: cross-site or same-site, when a guarded route is asked, then 403 cross_site_request")
    func crossSite() async throws {
        try await RouteTestServer().test { client in
            let id = try await BookRouteTests.upload(client)
            let foreign: [HTTPFields] = [
                [Self.host: "127.0.0.1:8880", Self.origin: "http://attacker.example"],
                [Self.host: "127.0.0.1:8880", Self.origin: "null"],
                [Self.host: "127.0.0.1:8880", Self.fetchSite: "cross-site"],
                [Self.host: "localhost:8880", Self.origin: "http://localhost:3000", Self.fetchSite: "same-site"],
            ]
            for headers in foreign {
                for route in Self.guarded(id) {
                    let response = try await Self.send(client, route, headers)
                    #expect(response.status == .forbidden, "\(route.method) \(route.path) \(headers)")
                    #expect(response.apiError?.code == "cross_site_request", "\(route.path)")
                }
            }
            #expect((try await client.get("/v1/books").json?["books"] as? [Any])?.count == 1)
        }
    }

    @Test("Given no Origin (SDKs, curl), the page's own origin, localhost, an IP address or the bound host, then the routes answer")
    func ownSiteAllowed() async throws {
        try await RouteTestServer { $0.host = "reader.lan" }.test { client in
            let id = try await BookRouteTests.upload(client)
            let own: [HTTPFields] = [
                [:],
                [Self.host: "127.0.0.1:8880", Self.origin: "http://127.0.0.1:8880", Self.fetchSite: "same-origin"],
                [Self.host: "localhost:8880", Self.origin: "http://localhost:8880"],
                [Self.host: "[::1]:8880"],
                [Self.host: "192.168.1.20:8880", Self.fetchSite: "none"],
                [Self.host: "reader.lan:8880", Self.origin: "http://reader.lan:8880"],
            ]
            for headers in own {
                let text = try await client.get("/v1/books/\(id)/pages/1/text", headers: headers)
                #expect(text.status == .ok, "\(headers)")
            }
        }
    }

    @Test("Given another site's page, when it fetches the page's static files or the health check, then they answer")
    func staticOpen() async throws {
        try await RouteTestServer().test { client in
            for path in ["/", "/app.js", "/healthz"] {
                let response = try await client.get(path, headers: [Self.host: "127.0.0.1:8880", Self.fetchSite: "cross-site"])
                #expect(response.status == .ok, "\(path)")
            }
        }
    }

    @Test("Given --allowed-host and --allowed-origin, then that host answers, that origin gets CORS headers and its preflight 204; others stay refused")
    func allowedNames() async throws {
        try await RouteTestServer {
            $0.allowedHosts = ["narrate", ".svc.cluster.local"]
            $0.allowedOrigins = ["https://reader.example.com"]
        }.test { client in
            let id = try await BookRouteTests.upload(client)
            for host in ["narrate:8880", "narrate.books.svc.cluster.local"] {
                #expect(try await client.get("/v1/books/\(id)/pages/1/text", headers: [Self.host: host]).status == .ok, "\(host)")
            }
            #expect(try await client.get("/v1/books", headers: [Self.host: "narrate.example"]).status.code == 421)

            let allowed: HTTPFields = [Self.host: "narrate", Self.origin: "https://reader.example.com", Self.fetchSite: "cross-site"]
            let text = try await client.get("/v1/books/\(id)/pages/1/text", headers: allowed)
            #expect(text.status == .ok)
            #expect(text.headers[HTTPField.Name("Access-Control-Allow-Origin")!] == "https://reader.example.com")
            let preflight = try await client.execute(uri: "/v1/audio/speech", method: .options, headers: allowed + [HTTPField.Name("Access-Control-Request-Method")!: "POST"])
            #expect(preflight.status == .noContent)
            #expect(preflight.headers[HTTPField.Name("Access-Control-Allow-Headers")!]?.contains("Authorization") == true)

            let other = try await client.get("/v1/books/\(id)/pages/1/text", headers: [Self.host: "narrate", Self.origin: "https://evil.example.com"])
            #expect(other.status == .forbidden)
            #expect(other.headers[HTTPField.Name("Access-Control-Allow-Origin")!] == nil)
        }
    }

    @Test("Given a JSON route, when the body is text/plain, a form or untyped, then 415; an upload of a form type is 415 too")
    func bodyTypes() async throws {
        try await RouteTestServer().test { client in
            let id = try await BookRouteTests.upload(client)
            for type in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", nil] {
                for path in ["/v1/audio/speech", "/v1/books/\(id)/exports"] {
                    let response = try await Self.send(client, (.post, path, type, #"{"model": "tts-1", "voice": "alloy", "input": "Hi.", "format": "wav"}"#), [:])
                    #expect(response.status == .unsupportedMediaType, "\(path) \(type ?? "none")")
                    #expect(response.apiError?.code == "unsupported_media_type")
                }
                let progress = try await Self.send(client, (.put, "/v1/books/\(id)/progress", type, #"{"page_index": 1}"#), [:])
                #expect(progress.status == .unsupportedMediaType)
            }
            let json = try await Self.send(client, (.put, "/v1/books/\(id)/progress", "application/json; charset=utf-8", #"{"page_index": 1}"#), [:])
            #expect(json.status == .ok)
            let form = try await Self.send(client, (.post, "/v1/books?filename=x.md", "application/x-www-form-urlencoded", "# A"), [:])
            #expect(form.status == .unsupportedMediaType)
        }
    }

    @Test("SitePolicy reads hosts as a browser sends them")
    func policy() {
        let sut = SitePolicy(boundHost: "0.0.0.0", allowedHosts: ["*.bad", ".good.example"])
        #expect(sut.allows(host: "127.0.0.1:8880"))
        #expect(sut.allows(host: "[::1]:8880"))
        #expect(sut.allows(host: "books.localhost"))
        #expect(sut.allows(host: "a.good.example") && sut.allows(host: "good.example"))
        #expect(!sut.allows(host: "notgood.example"))
        #expect(!sut.allows(host: "127.0.0.1.attacker.example"))
        #expect(!sut.allows(host: "1.2.3.4.5"))
        #expect(!sut.allows(host: ""))
        #expect(SitePolicy.isIPAddress("10.0.0.1") && !SitePolicy.isIPAddress("10.0.0.256"))
    }
}
