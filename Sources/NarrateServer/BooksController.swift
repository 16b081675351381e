import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NarrateKit

/// The library over HTTP: list, upload, detail, contents, pages, page text, page audio (cache
/// first, with `Range` and `ETag`), reading progress, removal.
struct BooksController: Sendable {
    let backend: SpeechBackend

    /// A library book in `GET /v1/books` and an upload's answer (snake_case keys).
    struct BookSummaryResponse: ResponseEncodable {
        var summary: BookSummary

        private enum CodingKeys: String, CodingKey {
            case id, title, authors, language, format, pageCount = "page_count", chapterCount = "chapter_count", progress, added
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(summary.id.description, forKey: .id)
            try container.encode(summary.title, forKey: .title)
            try container.encode(summary.authors, forKey: .authors)
            try container.encodeIfPresent(summary.language, forKey: .language)
            // The case name (plainText, epub, html, markdown), not the CLI's file extension.
            try container.encode("\(summary.format)", forKey: .format)
            try container.encode(summary.pageCount, forKey: .pageCount)
            try container.encode(summary.chapterCount, forKey: .chapterCount)
            try container.encodeIfPresent(Progress(summary), forKey: .progress)
            try container.encode(summary.dateAdded, forKey: .added)
        }
    }

    struct Progress: ResponseEncodable, Decodable {
        var page_index: Int
        var page: String?
        var updated: Date?
    }

    struct BookList: ResponseEncodable { var books: [BookSummaryResponse] }

    /// One library book in `GET /v1/books/{id}`: the summary and what else the book says of itself.
    struct BookDetail: ResponseEncodable {
        var summary: BookSummary
        var publisher: String?
        var date: String?
        var description: String?
        var skippedWords: Int

        init(_ book: LibraryBook) {
            summary = BookSummary(book)
            publisher = book.book.metadata.publisher
            date = book.book.metadata.date
            description = book.book.metadata.bookDescription
            skippedWords = book.book.skipped.reduce(0) { $0 + $1.words }
        }

        private enum CodingKeys: String, CodingKey {
            case id, title, authors, language, publisher, date, description, format
            case pageCount = "page_count", chapterCount = "chapter_count", skippedWords = "skipped_words", progress, added
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(summary.id.description, forKey: .id)
            try container.encode(summary.title, forKey: .title)
            try container.encode(summary.authors, forKey: .authors)
            try container.encodeIfPresent(summary.language, forKey: .language)
            try container.encodeIfPresent(publisher, forKey: .publisher)
            try container.encodeIfPresent(date, forKey: .date)
            try container.encodeIfPresent(description, forKey: .description)
            try container.encode("\(summary.format)", forKey: .format)
            try container.encode(summary.pageCount, forKey: .pageCount)
            try container.encode(summary.chapterCount, forKey: .chapterCount)
            try container.encode(skippedWords, forKey: .skippedWords)
            try container.encodeIfPresent(Progress(summary), forKey: .progress)
            try container.encode(summary.dateAdded, forKey: .added)
        }
    }

    struct TOCEntry: ResponseEncodable { var title: String; var depth: Int; var page_index: Int; var page: String }
    struct TOC: ResponseEncodable { var book_id: String; var chapters: [TOCEntry] }
    struct PageEntry: ResponseEncodable { var index: Int; var page: String; var chapter: String?; var words: Int }
    struct PageList: ResponseEncodable { var book_id: String; var pages: [PageEntry] }

    struct ProgressBody: Decodable {
        var page: String?
        var page_index: Int?
    }

    func register(on router: Router<ServerRequestContext>) {
        let books = router.group("/v1/books")
        books.get { _, _ in try await list() }
        books.post { request, context in try await upload(request, context: context) }
        books.get("{id}") { _, context in try await detail(try context.parameters.require("id")) }
        books.delete("{id}") { _, context in try await remove(try context.parameters.require("id")) }
        books.get("{id}/toc") { _, context in try await toc(try context.parameters.require("id")) }
        books.get("{id}/pages") { _, context in try await pages(try context.parameters.require("id")) }
        books.get("{id}/pages/{page}/text") { _, context in
            try await pageText(try context.parameters.require("id"), page: try context.parameters.require("page"))
        }
        books.get("{id}/pages/{page}/audio") { request, context in
            try await pageAudio(request, context: context, id: try context.parameters.require("id"), page: try context.parameters.require("page"))
        }
        // What a player asks before it streams: the headers of the audio, not the bytes.
        books.head("{id}/pages/{page}/audio") { request, context in
            var response = try await pageAudio(request, context: context, id: try context.parameters.require("id"), page: try context.parameters.require("page"))
            let length = response.body.contentLength
            response.body = ResponseBody()
            if let length { response.headers[.contentLength] = String(length) }
            return response
        }
        books.put("{id}/progress") { request, context in
            try await progress(request, context: context, id: try context.parameters.require("id"))
        }
    }

    // MARK: - Handlers

    func list() async throws -> BookList {
        let books = try await call { () throws(BookError) in try await backend.library.getBooks.execute() }
        return BookList(books: books.map { BookSummaryResponse(summary: BookSummary($0)) })
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
            throw APIError.badRequest("The body is empty: send the book file (EPUB, text, HTML or Markdown) as the body.", code: "empty_file")
        }
        let bytes = Array(buffer.readableBytesView)
        let fileExtension = Self.fileExtension(filename: request.uri.queryParameters["filename"].map(String.init), contentType: request.headers[.contentType], bytes: bytes)
        let directory = URL(fileURLWithPath: backend.configuration.libraryPath).deletingLastPathComponent().appendingPathComponent("uploads").path
        let path: String
        do {
            path = try BookUploadStore.store(bytes, fileExtension: fileExtension, in: directory)
        } catch {
            throw APIError(HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"), error.description, code: "storage_failed")
        }
        let result = try await call { () throws(BookError) in try await backend.library.importBook.execute(path: path) }
        backend.pageMemo.forgetResolutions()
        var response = try BookSummaryResponse(summary: BookSummary(result.book)).response(from: request, context: context)
        response.status = result.existed ? .ok : .created
        response.headers[.location] = "/v1/books/\(result.book.id)"
        return response
    }

    func detail(_ id: String) async throws -> BookDetail {
        BookDetail(try await find(id))
    }

    func remove(_ id: String) async throws -> Response {
        let book = try await find(id)
        _ = try await call { () throws(BookError) in try await backend.library.deleteBook.execute(reference: book.id.description) }
        backend.pageMemo.forgetResolutions()
        return Response(status: .noContent)
    }

    func toc(_ id: String) async throws -> TOC {
        let reference = try await find(id).id.description
        let result = try await call { () throws(BookError) in try await backend.library.getTableOfContents.execute(reference: reference) }
        return TOC(book_id: reference, chapters: result.entries.map { TOCEntry(title: $0.title, depth: $0.depth, page_index: $0.pageIndex, page: $0.pageLabel) })
    }

    func pages(_ id: String) async throws -> PageList {
        let book = try await find(id)
        let chapters = book.book.chapters
        return PageList(book_id: book.id.description, pages: book.book.pages.map { page in
            PageEntry(index: page.index, page: page.label, chapter: page.chapterIndex.flatMap { chapters.indices.contains($0) ? chapters[$0].title : nil }, words: page.text.split(whereSeparator: \.isWhitespace).count)
        })
    }

    func pageText(_ id: String, page: String) async throws -> Response {
        let reference = try await find(id).id.description
        let result = try await call { () throws(BookError) in try await backend.library.getPage.execute(reference: reference, page: page) }
        return Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: result.page.text)))
    }

    func progress(_ request: Request, context: ServerRequestContext, id: String) async throws -> Progress {
        let book = try await find(id)
        let buffer = try await request.body.collect(upTo: 4_096)
        guard let body = try? JSONDecoder().decode(ProgressBody.self, from: Data(buffer.readableBytesView)) else {
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
        return Progress(page_index: saved.pageIndex, page: label, updated: saved.updatedAt)
    }

    /// A page's audio, rendered once per text, voice and format into the cache folder and
    /// served from there with `ETag` and byte ranges.
    func pageAudio(_ request: Request, context: ServerRequestContext, id: String, page: String) async throws -> Response {
        let query = request.uri.queryParameters
        let formatName = query["format"].map(String.init) ?? "mp3"
        guard let format = StreamFormat(rawValue: formatName) else {
            throw APIError.badRequest("Unknown format '\(formatName)': use one of \(StreamFormat.allCases.map(\.rawValue).joined(separator: ", ")).", param: "format")
        }
        let voiceName = query["voice"].map(String.init) ?? ""
        // A page served a moment ago: no library or voice lookup, and its bytes from memory.
        let key = "\(id)\u{1F}\(page)\u{1F}\(voiceName)\u{1F}\(format.rawValue)"
        if let known = backend.pageMemo.resolution(for: key), access(known.path, R_OK) == 0 {
            return try respond(request, tag: known.tag, path: known.path, format: format)
        }
        // One request looks it up again; the others meanwhile are served what was known.
        defer { backend.pageMemo.endRefresh(key) }
        let reference = try Self.reference(id)
        let found = try await call { () throws(BookError) in try await backend.library.getPage.execute(reference: reference, page: page) }
        let book = found.book
        let voice: VoiceProfile
        if !voiceName.isEmpty {
            voice = try await backend.voice(named: voiceName, speed: nil)
        } else {
            do {
                voice = try await backend.resolveVoice.choose(name: nil, language: book.book.metadata.language, overrides: VoiceOverrides()).profile.reading(book.book)
            } catch {
                throw SpeechBackend.apiError(error)
            }
        }
        let tag = try await backend.entityTag(text: found.page.text, voice: voice, format: format.rawValue)
        if let header = request.headers[.ifNoneMatch], SpeechController.matches(header, tag) {
            return Response(status: .notModified, headers: [.eTag: tag])
        }
        let path = try await backend.renderedPage(book: book.book, page: found.page, voice: voice, format: format, tag: tag, channel: context.channel)
        backend.pageMemo.remember(key, tag: tag, path: path)
        return try respond(request, tag: tag, path: path, format: format)
    }

    private func respond(_ request: Request, tag: String, path: String, format: StreamFormat) throws -> Response {
        if let header = request.headers[.ifNoneMatch], SpeechController.matches(header, tag) {
            return Response(status: .notModified, headers: [.eTag: tag])
        }
        let source: ByteRangeResponse.Source
        if let kept = backend.pageMemo.bytes(for: tag) {
            source = .memory(kept)
        } else {
            guard let length = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int else {
                throw APIError(.internalServerError, "The rendered audio could not be read.", code: "storage_failed")
            }
            if backend.pageMemo.keeps(length) {
                let bytes = try ByteRangeResponse.read(path)
                backend.pageMemo.keep(bytes, for: tag)
                source = .memory(bytes)
            } else {
                source = .file(path: path, length: length)
            }
        }
        return ByteRangeResponse.respond(with: source, contentType: format.contentType, tag: tag, range: request.headers[.range], ifRange: request.headers[.ifRange])
    }

    // MARK: - Helpers

    private func find(_ id: String) async throws -> LibraryBook {
        let reference = try Self.reference(id)
        return try await call { () throws(BookError) in try await backend.library.getBookDetail.execute(reference: reference) }
    }

    /// A path's book id as a library reference: only ids, never a file path or title.
    private static func reference(_ id: String) throws(APIError) -> String {
        guard Int64(id) != nil else { throw APIError.notFound("There is no book '\(id)': book ids are numbers (GET /v1/books lists them).") }
        return id
    }

    /// Runs a library call, its errors as API errors.
    private func call<T>(_ body: () async throws(BookError) -> T) async throws(APIError) -> T {
        do {
            return try await body()
        } catch {
            throw Self.apiError(error)
        }
    }

    static func apiError(_ error: BookError) -> APIError {
        switch error {
        case .bookNotFound, .fileNotFound:
            APIError.notFound(error.description.replacingOccurrences(of: " 'narrate list' shows the library.", with: " GET /v1/books lists the library."))
        case .pageNotFound, .endOfBook:
            APIError(.notFound, error.description, code: "page_not_found")
        case .libraryFailed:
            APIError(.internalServerError, error.description, code: "library_failed")
        case .ambiguousBook:
            APIError.badRequest(error.description)
        default:
            // The upload's own problems: not a book, damaged, too large inside.
            APIError(.unprocessableContent, error.description.replacingOccurrences(of: #"'[^']*/uploads/[0-9a-f]{64}\.(\w+)'"#, with: "The uploaded file", options: .regularExpression), code: "unreadable_book")
        }
    }

    /// The extension the parsers read the upload by: `?filename=`, else the content type,
    /// else the bytes (a ZIP is an EPUB; markup is HTML; anything else text).
    static func fileExtension(filename: String?, contentType: String?, bytes: [UInt8]) -> String {
        if let filename, let dot = filename.lastIndex(of: ".") {
            let ext = filename[filename.index(after: dot)...].lowercased()
            if ["epub", "txt", "text", "html", "htm", "xhtml", "md", "markdown"].contains(ext) { return ext }
        }
        switch contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() {
        case "application/epub+zip": return "epub"
        case "text/html", "application/xhtml+xml": return "html"
        case "text/markdown", "text/x-markdown": return "md"
        case "text/plain": return "txt"
        default: break
        }
        if bytes.starts(with: [0x50, 0x4B]) { return "epub" }
        let head = String(decoding: bytes.prefix(512), as: UTF8.self).lowercased()
        if head.contains("<html") || head.contains("<!doctype html") { return "html" }
        return "txt"
    }
}

extension BooksController.Progress {
    /// Where the summary's reader stopped; nil before they start.
    init?(_ summary: BookSummary) {
        guard let progress = summary.progress else { return nil }
        self.init(page_index: progress.pageIndex, page: summary.progressPageLabel, updated: progress.updatedAt)
    }
}
