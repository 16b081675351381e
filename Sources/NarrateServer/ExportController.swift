import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NarrateKit

/// A book exported for download, as a job: `POST /v1/books/{id}/exports` (M4B, MP3, WAV or a
/// read-along EPUB, a voice and speed, chapters), `GET /v1/exports[/{job}]`, its progress as
/// server-sent events (`/events`), its file with byte ranges (`/file`), and `DELETE` to cancel
/// or remove it (`ExportJobs` runs them).
struct ExportController: BookRoutes {
    let backend: SpeechBackend

    /// The body of `POST /v1/books/{id}/exports`.
    struct Body: Decodable {
        var format: String?
        var voice: String?
        var speed: Double?
        /// `[first, last]`, 1-based and inclusive.
        var chapters: [Int]?
        /// "auto": each character in the voice `narrate cast` proposes.
        var cast: String?
    }

    static let formats = ["m4b", "mp3", "wav", "epub"]

    func register(on router: Router<ServerRequestContext>) {
        router.group("/v1/books").post("{id}/exports") { request, context in
            try await create(request, id: try context.parameters.require("id"))
        }
        let exports = router.group("/v1/exports")
        exports.get { _, _ in ExportJobListResponse(exports: try await jobs().all.map(ExportJobResponse.init)) }
        exports.get("{job}") { _, context in ExportJobResponse(try await job(try context.parameters.require("job"))) }
        exports.delete("{job}") { _, context -> HTTPResponse.Status in
            guard try await jobs().remove(try context.parameters.require("job")) else { throw Self.notFound }
            return .noContent
        }
        exports.get("{job}/events") { _, context in try await events(try context.parameters.require("job")) }
        exports.get("{job}/file") { request, context in try await file(request, id: try context.parameters.require("job")) }
    }

    static let notFound = APIError(.notFound, "There is no such export: GET /v1/exports lists them.", code: "export_not_found")

    private func jobs() throws(APIError) -> ExportJobs {
        guard let exports = backend.exports else {
            throw APIError(.serviceUnavailable, "Exports need the audio cache, and this service runs without one (--no-cache).", code: "exports_unavailable")
        }
        return exports
    }

    private func job(_ id: String) async throws -> ExportJob {
        guard let found = try await jobs().job(id) else { throw Self.notFound }
        return found
    }

    func create(_ request: Request, id: String) async throws -> Response {
        let exports = try jobs()
        let book = try await find(id)
        let buffer = try await request.body.collect(upTo: 64 << 10)
        let body: Body
        do {
            body = try JSONDecoder().decode(Body.self, from: Data(buffer.readableBytesView))
        } catch {
            throw APIError.badRequest("Send {\"format\": \"m4b\"} with, if you like, \"voice\", \"speed\" and \"chapters\": [first, last].", code: "invalid_json")
        }
        let format = body.format ?? "m4b"
        guard Self.formats.contains(format) else {
            throw APIError.badRequest("Unknown export format '\(format)': use one of \(Self.formats.joined(separator: ", ")).", param: "format")
        }
        let chapterCount = book.book.chapters.count
        if let chapters = body.chapters {
            guard chapters.count == 2, chapters[0] >= 1, chapters[0] <= chapters[1], chapters[1] <= chapterCount else {
                throw APIError.badRequest("Chapters are [first, last], from 1 to \(chapterCount) for this book.", param: "chapters", code: "chapter_not_found")
            }
        }
        if let cast = body.cast, cast != "auto" {
            throw APIError.badRequest("The cast '\(cast.prefix(40))' is not one: give \"cast\": \"auto\" (each character in a voice of its own), or no cast.", param: "cast")
        }
        // An unknown voice or an unreachable speed is refused now, not when the job runs.
        let voice = body.voice?.trimmingCharacters(in: .whitespaces).lowercased()
        do {
            _ = try await backend.chooseVoice.execute(VoiceRequest(name: voice?.isEmpty == false ? voice : nil, speed: body.speed), reading: book.book)
        } catch {
            throw SpeechBackend.apiError(error)
        }
        let job = ExportJob(
            id: UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""), book_id: book.id.description, title: book.book.metadata.title,
            format: format, voice: voice?.isEmpty == false ? voice : nil, speed: body.speed, cast: body.cast, chapters: body.chapters, state: .queued, done: 0, total: 0,
            created: exports.now())
        let queued = try await exports.submit(job)
        let answer = try JSONEncoder.exports.encode(ExportJobResponse(queued))
        return Response(
            status: .accepted, headers: [.contentType: "application/json", .location: "/v1/exports/\(job.id)"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer)))
    }

    /// The job's state as server-sent events, one `progress` event per change, then one named
    /// after how it ended (`done`, `failed`, `cancelled`); each `data` is the job as JSON.
    func events(_ id: String) async throws -> Response {
        guard let updates = try await jobs().updates(of: id) else { throw Self.notFound }
        let body = ResponseBody { writer in
            for await job in updates {
                let name = job.state.isOver ? job.state.rawValue : "progress"
                let data = String(decoding: try JSONEncoder.exports.encode(ExportJobResponse(job)), as: UTF8.self)
                try await writer.write(ByteBuffer(string: "event: \(name)\ndata: \(data)\n\n"))
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"], body: body)
    }

    func file(_ request: Request, id: String) async throws -> Response {
        let job = try await job(id)
        guard job.state == .done, let name = job.file_name else {
            throw APIError(.conflict, "The export is \(job.state.rawValue), not done: its events say when it is.", code: "export_not_ready")
        }
        let exports = try jobs()
        // Held from here until the body is written (or dropped): the limits keep the file.
        guard await exports.beginDownload(id) else { throw Self.notFound }
        let hold = DownloadHold(jobs: exports, id: id)
        let path = "\(exports.folder(of: id))/\(name)"
        guard let length = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int else {
            throw APIError(.gone, "The export's file is gone: export the book again.", code: "export_gone")
        }
        let contentType = switch job.format {
        case "m4b": "audio/mp4"
        case "mp3": "audio/mpeg"
        case "wav": "audio/wav"
        default: "application/epub+zip"
        }
        var response = ByteRangeResponse.respond(
            with: .file(path: path, length: length), contentType: contentType, tag: "\"\(id)-\(length)\"", range: request.headers[.range], ifRange: request.headers[.ifRange])
        let fileName = job.downloadName
        let ascii = String(fileName.unicodeScalars.map { $0.isASCII && $0 != "\"" && $0 != "\\" && $0.value >= 0x20 ? Character($0) : "_" })
        let encoded = fileName.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: ".-_"))) ?? ascii
        response.headers[.contentDisposition] = "attachment; filename=\"\(ascii)\"; filename*=UTF-8''\(encoded)"
        let body = response.body
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            try await body.write(writer)
            withExtendedLifetime(hold) {}
        }
        return response
    }
}
