import Foundation
import Hummingbird
import NIOCore
import NarrateKit

/// A library book's contents over HTTP: table of contents, pages, page text, reading progress.
struct BookPagesController: BookRoutes {
    let backend: SpeechBackend

    func register(on router: Router<ServerRequestContext>) {
        let books = router.group("/v1/books")
        books.get("{id}/toc") { _, context in try await toc(try context.parameters.require("id")) }
        books.get("{id}/pages") { _, context in try await pages(try context.parameters.require("id")) }
        books.get("{id}/pages/{page}/text") { _, context in
            try await pageText(try context.parameters.require("id"), page: try context.parameters.require("page"))
        }
        books.put("{id}/progress") { request, context in
            try await progress(request, context: context, id: try context.parameters.require("id"))
        }
    }

    func toc(_ id: String) async throws -> TableOfContentsResponse {
        let reference = try await find(id).id.description
        let result = try await call { () throws(BookError) in try await backend.library.getTableOfContents.execute(reference: reference) }
        return TableOfContentsResponse(book_id: reference, chapters: result.entries.map { TableOfContentsResponse.Entry(title: $0.title, depth: $0.depth, page_index: $0.pageIndex, page: $0.pageLabel) })
    }

    func pages(_ id: String) async throws -> PageListResponse {
        let book = try await find(id)
        let chapters = book.book.chapters
        return PageListResponse(book_id: book.id.description, pages: book.book.pages.map { page in
            PageListResponse.Entry(index: page.index, page: page.label, chapter: page.chapterIndex.flatMap { chapters.indices.contains($0) ? chapters[$0].title : nil }, words: page.text.split(whereSeparator: \.isWhitespace).count)
        })
    }

    func pageText(_ id: String, page: String) async throws -> Response {
        let reference = try await find(id).id.description
        let result = try await call { () throws(BookError) in try await backend.library.getPage.execute(reference: reference, page: page) }
        return Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: result.page.text)))
    }

    func progress(_ request: Request, context: ServerRequestContext, id: String) async throws -> ProgressResponse {
        let book = try await find(id)
        let buffer = try await request.body.collect(upTo: 4_096)
        guard let body = try? JSONDecoder().decode(ProgressUpdateBody.self, from: Data(buffer.readableBytesView)) else {
            throw APIError.badRequest("Send {\"page\": \"12\"} (a page label) or {\"page_index\": 12} (1-based).", code: "invalid_json")
        }
        let index: Int
        if let label = body.page {
            let reference = book.id.description
            index = try await call { () throws(BookError) in try await backend.library.getPage.execute(reference: reference, page: label) }.page.index
        } else if let pageIndex = body.page_index {
            guard (1...max(1, book.book.pages.count)).contains(pageIndex) else {
                throw APIError.badRequest("There is no page index \(pageIndex): the book has \(book.book.pages.count) pages.", param: "page_index", code: "page_not_found")
            }
            index = pageIndex
        } else {
            throw APIError.badRequest("Send {\"page\": \"12\"} (a page label) or {\"page_index\": 12} (1-based).", code: "missing_required_parameter")
        }
        let saved = try await call { () throws(BookError) in try await backend.library.updateReadingProgress.execute(book: book, pageIndex: index) }
        let label = book.book.pages.first { $0.index == saved.pageIndex }?.label
        return ProgressResponse(page_index: saved.pageIndex, page: label, updated: saved.updatedAt)
    }
}
