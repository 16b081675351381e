import Foundation
import HTTPTypes
import Hummingbird
import NarrateKit

/// A book's bookmarks over HTTP: list, add (a page and a place on it, with a note), remove.
/// They are the library's, as the reading progress is: `narrate bookmarks` lists the same.
struct BookmarkController: BookRoutes {
    let backend: SpeechBackend

    /// The most a body may hold: a note of the longest, every character escaped.
    static let bodyLimit = 16 << 10

    func register(on router: Router<ServerRequestContext>) {
        let books = router.group("/v1/books")
        books.get("{id}/bookmarks") { _, context in try await list(try context.parameters.require("id")) }
        books.post("{id}/bookmarks") { request, context in
            try await add(request, context: context, id: try context.parameters.require("id"))
        }
        books.delete("{id}/bookmarks/{bookmark}") { _, context -> HTTPResponse.Status in
            try await remove(try context.parameters.require("id"), bookmark: try context.parameters.require("bookmark"))
            return .noContent
        }
    }

    func list(_ id: String) async throws -> BookmarkListResponse {
        let reference = try Self.reference(id)
        let (book, bookmarks) = try await bookmarkCall { () throws(BookmarkError) in try await backend.library.getBookmarks.execute(reference: reference) }
        return BookmarkListResponse(book_id: book.id.description, bookmarks: bookmarks.map { BookmarkResponse($0, in: book) })
    }

    func add(_ request: Request, context: ServerRequestContext, id: String) async throws -> Response {
        let reference = try Self.reference(id)
        let usage = "Send {\"page_index\": 12} (1-based) or {\"page\": \"12\"} (a label), with, if you like, \"text_offset\" (the place on the page) and \"note\"."
        let body: BookmarkCreateBody
        do {
            let buffer = try await request.body.collect(upTo: Self.bodyLimit)
            body = try JSONDecoder().decode(BookmarkCreateBody.self, from: Data(buffer.readableBytesView))
        } catch {
            throw APIError.badRequest(usage, code: "invalid_json")
        }
        let page: String
        if let label = body.page {
            page = label
        } else if let index = body.page_index {
            page = "#\(index)"
        } else {
            throw APIError.badRequest(usage, code: "missing_required_parameter")
        }
        let (book, bookmark) = try await bookmarkCall { () throws(BookmarkError) in
            try await backend.library.addBookmark.execute(reference: reference, page: page, textOffset: body.text_offset ?? 0, note: body.note)
        }
        var response = try BookmarkResponse(bookmark, in: book).response(from: request, context: context)
        response.status = .created
        return response
    }

    func remove(_ id: String, bookmark: String) async throws {
        let reference = try Self.reference(id)
        guard let number = Int64(bookmark) else {
            throw APIError(.notFound, "There is no bookmark '\(bookmark)': bookmark ids are numbers.", code: "bookmark_not_found")
        }
        _ = try await bookmarkCall { () throws(BookmarkError) in
            try await backend.library.removeBookmark.execute(reference: reference, id: BookmarkID(rawValue: number))
        }
    }

    /// Runs a bookmark call, its errors as API errors.
    private func bookmarkCall<T>(_ body: () async throws(BookmarkError) -> T) async throws(APIError) -> T {
        do {
            return try await body()
        } catch {
            throw APIError(error)
        }
    }
}
