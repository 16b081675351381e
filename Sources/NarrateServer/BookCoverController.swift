import HTTPTypes
import Hummingbird
import NIOCore
import NarrateKit

/// A library book's cover image, as the book carries it (`GET /v1/books/{id}/cover`), for a
/// player's shelf: with an `ETag` and cached by the browser. Only image types are served, each
/// as what it says it is (`nosniff`, as every answer); an SVG cover runs no script (a
/// sandboxing policy). A book's summary and detail link it when there is one to serve.
struct BookCoverController: BookRoutes {
    let backend: SpeechBackend

    /// The image types a cover is served as; another is not a cover this service shows.
    static let imageTypes: Set<String> = ["image/jpeg", "image/png", "image/gif", "image/webp", "image/svg+xml"]

    func register(on router: Router<ServerRequestContext>) {
        router.group("/v1/books").get("{id}/cover") { request, context in
            try await cover(request, id: try context.parameters.require("id"))
        }
    }

    /// The book's cover when it is an image this service serves, with its type in lower case.
    static func servable(_ book: LibraryBook) -> (cover: BookCover, mediaType: String)? {
        guard let cover = book.book.cover, !cover.data.isEmpty, imageTypes.contains(cover.mediaType.lowercased()) else { return nil }
        return (cover, cover.mediaType.lowercased())
    }

    /// Where the book's cover is served, if it has one.
    static func link(for book: LibraryBook) -> String? {
        servable(book) == nil ? nil : "/v1/books/\(book.id)/cover"
    }

    func cover(_ request: Request, id: String) async throws -> Response {
        guard let (cover, mediaType) = Self.servable(try await find(id)) else {
            throw APIError(.notFound, "The book \(id) has no cover image.", code: "cover_not_found")
        }
        let tag = ContentTag.strong(cover.data)
        var headers: HTTPFields = [.eTag: tag, .cacheControl: "private, max-age=3600"]
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
