import HTTPTypes
import Hummingbird

/// Every response says what a browser may do with it: a Content-Security-Policy without
/// `unsafe-inline` (scripts and styles only from this service's own files, audio and covers
/// from it or from blobs made of its answers, its manifest, no frames, no plugins), `nosniff`, and no
/// referrer. A response that sets its own policy (an SVG cover) keeps it. It is the outermost
/// middleware, so errors, already made responses by `RequestLogMiddleware`, get it too.
struct SecurityHeadersMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    static let policy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; media-src 'self' blob:; "
        + "connect-src 'self'; manifest-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        Self.secure(&response.headers)
        return response
    }

    static func secure(_ headers: inout HTTPFields) {
        if headers[.contentSecurityPolicy] == nil { headers[.contentSecurityPolicy] = policy }
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
    }
}
