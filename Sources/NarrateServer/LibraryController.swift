import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NarrateKit

/// The library over HTTP: list, upload, detail, removal.
struct LibraryController: BookRoutes {
    let backend: SpeechBackend

    func register(on router: Router<ServerRequestContext>) {
        let books = router.group("/v1/books")
        books.get { _, _ in try await list() }
        books.post { request, context in try await upload(request, context: context) }
        books.get("{id}") { _, context in try await detail(try context.parameters.require("id")) }
        books.delete("{id}") { _, context in try await remove(try context.parameters.require("id")) }
    }

    func list() async throws -> BookListResponse {
        let books = try await call { () throws(BookError) in try await backend.library.getBooks.execute() }
        return BookListResponse(books: books.map { BookSummaryResponse($0) })
    }

    func upload(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let limit = backend.server.maxUploadBytes
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw APIError(.contentTooLarge, "The book is \(length) bytes; the most this service takes is \(limit).", code: "file_too_large")
        }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: limit)
        } catch {
            throw APIError(.contentTooLarge, "The book is larger than \(limit) bytes, the most this service takes.", code: "file_too_large")
        }
        guard buffer.readableBytes > 0 else {
            throw APIError.badRequest("The body is empty: send the book file (EPUB, PDF, DOCX, ODT, FB2, text, HTML or Markdown) as the body.", code: "empty_file")
        }
        let bytes = Array(buffer.readableBytesView)
        let fileExtension = BookUploadSniffer.fileExtension(filename: request.uri.queryParameters["filename"].map(String.init), contentType: request.headers[.contentType], bytes: bytes)
        let path: String
        do {
            path = try backend.environment.storeUpload(bytes, fileExtension: fileExtension)
        } catch {
            throw APIError(HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"), error.description, code: "storage_failed")
        }
        let result = try await call { () throws(BookError) in try await backend.library.importBook.execute(path: path) }
        backend.pageMemo.forgetResolutions()
        var response = try BookSummaryResponse(result.book).response(from: request, context: context)
        response.status = result.existed ? .ok : .created
        response.headers[.location] = "/v1/books/\(result.book.id)"
        return response
    }

    func detail(_ id: String) async throws -> BookDetailResponse {
        BookDetailResponse(try await find(id))
    }

    func remove(_ id: String) async throws -> Response {
        let book = try await find(id)
        _ = try await call { () throws(BookError) in try await backend.library.deleteBook.execute(reference: book.id.description) }
        backend.pageMemo.forgetResolutions()
        return Response(status: .noContent)
    }
}
