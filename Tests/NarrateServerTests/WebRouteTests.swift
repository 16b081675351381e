import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
@testable import NarrateServer

/// The listening room's files at `/`, and what every response tells a browser (the browser
/// tests of the page itself are Tests/ListeningRoom, through scripts/test-web.sh).
@Suite("Listening room routes")
struct WebRouteTests {
    @Test("Given the service, when /, /app.js and /app.css are asked for, then each is served with its type and ETag, and 304 when unchanged")
    func files() async throws {
        try await RouteTestServer().test { client in
            for (path, type) in [("/", "text/html; charset=utf-8"), ("/app.js", "text/javascript; charset=utf-8"), ("/app.css", "text/css; charset=utf-8")] {
                // When
                let response = try await client.get(path)
                let tag = try #require(response.headers[.eTag])
                let again = try await client.get(path, headers: [.ifNoneMatch: tag])

                // Then
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == type)
                #expect(!response.bytes.isEmpty)
                #expect(again.status == .notModified)
            }
            let page = String(decoding: try await client.get("/").bytes, as: UTF8.self)
            #expect(page.contains("<script src=\"/app.js\" defer></script>"))
            #expect(!page.contains("<script>") && !page.contains("style="))
        }
    }

    @Test("Given any answer, success, error or unknown route, when it is sent, then it carries a policy without unsafe-inline, nosniff and no referrer")
    func securityHeaders() async throws {
        try await RouteTestServer { $0.apiKeys = ["key"] }.test { client in
            // When: the open page, a refused request (no key) and a route that does not exist
            let answers = [try await client.get("/"), try await client.get("/v1/books"), try await client.get("/nowhere", headers: [.authorization: "Bearer key"])]

            // Then
            #expect(answers.map(\.status.code) == [200, 401, 404])
            for answer in answers {
                let policy = try #require(answer.headers[.contentSecurityPolicy])
                #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'self'"))
                #expect(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"))
                #expect(answer.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
                #expect(answer.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
            }
        }
    }

    @Test("Given --no-web, when / is asked for, then 404 and the API still answers")
    func noWeb() async throws {
        try await RouteTestServer { $0.web = false }.test { client in
            // When
            let page = try await client.get("/")
            let script = try await client.get("/app.js")
            let books = try await client.get("/v1/books")

            // Then
            #expect(page.status == .notFound)
            #expect(script.status == .notFound)
            #expect(books.status == .ok)
        }
    }
}
