import HTTPTypes
import Hummingbird
import NarrateDomain

/// Applies the `SitePolicy` and the body types (`RequestContentType`) before any route: a
/// foreign `Host` gets 421, another site's request 403, a body of the wrong type 415, each
/// with a one-line JSON error. An allowed foreign origin gets CORS headers, and its preflight
/// (`OPTIONS`) is answered here.
struct SiteGuardMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    let policy: SitePolicy

    static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!
    static let origin = HTTPField.Name("Origin")!
    static let host = HTTPField.Name("Host")!

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let method = request.method.rawValue
        let path = request.uri.path
        // HTTP/1 puts `Host` in the authority; a second Host field must name this service too.
        for host in [request.head.authority].compactMap({ $0 }) + request.headers[values: Self.host] where !policy.allows(host: host) {
            throw Self.wrongHost(host)
        }
        let verdict = policy.verdict(method: method, path: path, host: request.headers[Self.host] ?? request.head.authority, origin: request.headers[Self.origin], fetchSite: request.headers[Self.secFetchSite])
        switch verdict {
        case let .wrongHost(host):
            throw Self.wrongHost(host)
        case let .crossSite(origin):
            throw APIError(.forbidden, "This service answers its own page and clients, not \(origin.escapedExcerpt(limit: 100)); name that origin with --allowed-origin to let it in.", code: "cross_site_request")
        case let .allowed(corsOrigin):
            if let corsOrigin, request.method == .options {
                var response = Response(status: .noContent)
                Self.addCORS(&response.headers, origin: corsOrigin, preflight: true)
                return response
            }
            if let problem = RequestContentType.problem(method: method, path: path, contentType: request.headers[.contentType]) { throw problem }
            guard let corsOrigin else { return try await next(request, context) }
            do {
                var response = try await next(request, context)
                Self.addCORS(&response.headers, origin: corsOrigin, preflight: false)
                return response
            } catch let error as APIError {
                var response = try error.response(from: request, context: context)
                Self.addCORS(&response.headers, origin: corsOrigin, preflight: false)
                return response
            }
        }
    }

    static func wrongHost(_ host: String) -> APIError {
        APIError(.init(code: 421, reasonPhrase: "Misdirected Request"), "This service does not answer to the host name '\(host.escapedExcerpt(limit: 100))'; name it with --allowed-host if it should.", code: "host_not_allowed")
    }

    static func addCORS(_ headers: inout HTTPFields, origin: String, preflight: Bool) {
        headers[HTTPField.Name("Access-Control-Allow-Origin")!] = origin
        headers[HTTPField.Name("Vary")!] = "Origin"
        headers[HTTPField.Name("Access-Control-Expose-Headers")!] = "Location, Content-Disposition, Retry-After"
        if preflight {
            headers[HTTPField.Name("Access-Control-Allow-Methods")!] = "GET, HEAD, POST, PUT, DELETE"
            headers[HTTPField.Name("Access-Control-Allow-Headers")!] = "Authorization, Content-Type, Range"
            headers[HTTPField.Name("Access-Control-Max-Age")!] = "600"
        }
    }
}
