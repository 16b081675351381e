import Foundation
import Hummingbird
import NIOCore
import NarrateKit

/// When each sentence and word of a library page is spoken in its audio, beside the page audio:
/// `GET /v1/books/{id}/pages/{page}/timing` as JSON (`PageTimingResponse`) or, with
/// `format=vtt`, as a WebVTT track. The same `voice`, `speed` and cast as the audio give the
/// timing of that audio. Kept when the audio is rendered, so asking after it costs a file read.
struct PageTimingController: BookRoutes {
    let backend: SpeechBackend

    func register(on router: Router<ServerRequestContext>) {
        router.group("/v1/books").get("{id}/pages/{page}/timing") { request, context in
            try await timing(request, id: try context.parameters.require("id"), page: try context.parameters.require("page"))
        }
    }

    func timing(_ request: Request, id: String, page: String) async throws -> Response {
        let query = request.uri.queryParameters
        let format = query["format"].map(String.init) ?? "json"
        guard format == "json" || format == "vtt" else {
            throw APIError.badRequest("Unknown timing format '\(format)': use json or vtt.", param: "format")
        }
        let voice = try PageAudioController.voice(query)
        let cast = try PageCastQuery(query)
        var speech = try await resolve(id: id, page: page, voice: voice)
        speech.cast = try await cast?.resolve(for: speech, voice: voice, in: backend.environment)
        let tag = try await backend.entityTag(for: speech.speechRequest, format: "timing")
        let servedTag = "\(tag.dropLast())-\(format)\""
        if let header = request.headers[.ifNoneMatch], SpeechController.matches(header, servedTag) {
            return Response(status: .notModified, headers: [.eTag: servedTag])
        }
        let record = try await backend.renderedTiming(speech, tag: tag)
        let body: ByteBuffer
        let contentType: String
        if format == "vtt" {
            body = ByteBuffer(string: record.webVTT)
            contentType = "text/vtt; charset=utf-8"
        } else {
            let response = PageTimingResponse(bookID: speech.book.id.description, page: speech.page.label, record: record)
            body = ByteBuffer(bytes: try JSONEncoder().encode(response))
            contentType = "application/json"
        }
        return Response(status: .ok, headers: [.contentType: contentType, .eTag: servedTag, .cacheControl: "no-cache"], body: .init(byteBuffer: body))
    }
}
