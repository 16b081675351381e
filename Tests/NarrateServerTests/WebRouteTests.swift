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
    @Test("Given the service, when each of the page's files is asked for, then it is served with its type and ETag, and 304 when unchanged")
    func files() async throws {
        try await RouteTestServer().test { client in
            let expected = [
                ("/", "text/html; charset=utf-8"), ("/app.js", "text/javascript; charset=utf-8"), ("/app.css", "text/css; charset=utf-8"),
                ("/manifest.webmanifest", "application/manifest+json"), ("/web/player.js", "text/javascript; charset=utf-8"),
                ("/web/media-session.js", "text/javascript; charset=utf-8"), ("/web/icon.svg", "image/svg+xml"), ("/web/icon-512.png", "image/png"),
            ]
            for (path, type) in expected {
                // When
                let response = try await client.get(path)
                let tag = try #require(response.headers[.eTag])
                let again = try await client.get(path, headers: [.ifNoneMatch: tag])

                // Then
                #expect(response.status == .ok, "\(path)")
                #expect(response.headers[.contentType] == type, "\(path)")
                #expect(!response.bytes.isEmpty)
                #expect(again.status == .notModified)
            }
            let page = String(decoding: try await client.get("/").bytes, as: UTF8.self)
            #expect(page.contains("<script type=\"module\" src=\"/app.js\"></script>"))
            #expect(page.contains("<link rel=\"manifest\" href=\"/manifest.webmanifest\">"))
            #expect(!page.contains("<script>") && !page.contains("style="))
            #expect(try await client.get("/web/nothing.js").status == .notFound)
        }
    }

    @Test("Given the page's modules, when their imports are followed, then each names a file the service serves")
    func moduleImports() async throws {
        try await RouteTestServer().test { client in
            for path in WebController.files.keys where path.hasSuffix(".js") {
                // When
                let script = String(decoding: try await client.get(path).bytes, as: UTF8.self)
                let imports = script.matches(of: /from "\.\/([a-z\/-]+\.js)"/).map { String($0.output.1) }

                // Then
                let folder = path == "/app.js" ? "/" : "/web/"
                for name in imports { #expect(WebController.files[folder + name] != nil, "\(path) imports \(name)") }
            }
        }
    }

    @Test("Given the manifest, when it is read, then it names the page and icons the service serves")
    func manifest() async throws {
        try await RouteTestServer().test { client in
            // When
            let manifest = try #require(try await client.get("/manifest.webmanifest").json)

            // Then
            #expect(manifest["start_url"] as? String == "/")
            #expect(manifest["display"] as? String == "standalone")
            let icons = try #require(manifest["icons"] as? [[String: Any]])
            #expect(icons.contains { $0["sizes"] as? String == "512x512" && $0["type"] as? String == "image/png" })
            for icon in icons {
                let source = try #require(icon["src"] as? String)
                #expect(try await client.get(source).headers[.contentType] == icon["type"] as? String, "\(source)")
            }
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
                #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'self'") && policy.contains("manifest-src 'self'"))
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
