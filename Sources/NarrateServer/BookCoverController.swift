import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NarrateKit

/// A library book's cover image, as the book carries it (`GET /v1/books/{id}/cover`), for a
/// player's shelf: with an `ETag` and cached by the browser. Only image types are served, each
/// as what it says it is (`nosniff`); an SVG cover runs no script (a sandboxing policy).
struct BookCoverController: BookRoutes {
    let backend: SpeechBackend

    /// The image types a cover is served as; another is not a cover this service shows.
    static let imageTypes: Set<String> = ["image/jpeg", "image/png", "image/gif", "image/webp", "image/svg+xml"]

    func register(on router: Router<ServerRequestContext>) {
        router.group("/v1/books").get("{id}/cover") { request, context in
            try await cover(request, id: try context.parameters.require("id"))
        }
    }

    func cover(_ request: Request, id: String) async throws -> Response {
        let book = try await find(id)
        let mediaType = book.book.cover.map { $0.mediaType.lowercased() }
        guard let cover = book.book.cover, let mediaType, Self.imageTypes.contains(mediaType), !cover.data.isEmpty else {
            throw APIError(.notFound, "The book \(id) has no cover image.", code: "cover_not_found")
        }
        let tag = "\"" + SHA256.hash(data: cover.data).prefix(16).map { String(format: "%02x", $0) }.joined() + "\""
        var headers: HTTPFields = [.eTag: tag, .cacheControl: "private, max-age=3600", HTTPField.Name("X-Content-Type-Options")!: "nosniff"]
        if mediaType == "image/svg+xml" {
            headers[.contentSecurityPolicy] = "default-src 'none'; sandbox"
        }
        if let header = request.headers[.ifNoneMatch], SpeechController.matches(header, tag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = mediaType
        headers[.contentLength] = String(cover.data.count)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: cover.data)))
    }
}
