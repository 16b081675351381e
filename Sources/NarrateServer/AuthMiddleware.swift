import Crypto
import HTTPTypes
import Hummingbird

/// `Authorization: Bearer KEY` against the configured keys, compared in constant time (as
/// SHA-256 digests, so neither length nor content leaks through timing). Health checks, the API
/// description and the listening room's static files (which ask for a key) need none. Keys are
/// never logged.
struct AuthMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    static let open: Set<String> = Set(["/healthz", "/readyz", "/openapi.json"]).union(WebController.files.keys)
    private let digests: [[UInt8]]

    init(keys: [String]) {
        digests = keys.map { Array(SHA256.hash(data: Array($0.utf8))) }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !digests.isEmpty, !Self.open.contains(request.uri.path) else {
            return try await next(request, context)
        }
        guard let header = request.headers[.authorization], header.count > 7, header.prefix(7).lowercased() == "bearer " else {
            throw APIError(.unauthorized, "Missing API key: send it as 'Authorization: Bearer KEY'.", code: "missing_api_key")
        }
        let given = Array(SHA256.hash(data: Array(header.dropFirst(7).utf8)))
        var accepted = false
        for digest in digests {
            var difference: UInt8 = 0
            for index in 0..<digest.count { difference |= digest[index] ^ given[index] }
            accepted = accepted || difference == 0
        }
        guard accepted else {
            throw APIError(.unauthorized, "Incorrect API key provided.", code: "invalid_api_key")
        }
        return try await next(request, context)
    }
}
