import Foundation
import Hummingbird
import NarrateKit

/// A library page's audio over HTTP (cache first, with `Range` and `ETag`), and its headers
/// alone for `HEAD`.
struct PageAudioController: BookRoutes {
    let backend: SpeechBackend

    func register(on router: Router<ServerRequestContext>) {
        let books = router.group("/v1/books")
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
    }

    /// A page's audio, rendered once per text, voice and format into the cache folder and
    /// served from there with `ETag` and byte ranges.
    func pageAudio(_ request: Request, context: ServerRequestContext, id: String, page: String) async throws -> Response {
        let query = request.uri.queryParameters
        let formatName = query["format"].map(String.init) ?? "mp3"
        guard let format = StreamFormat(rawValue: formatName) else {
            throw APIError.badRequest("Unknown format '\(formatName)': use one of \(StreamFormat.allCases.map(\.rawValue).joined(separator: ", ")).", param: "format")
        }
        let voice = try Self.voice(query)
        let cast = try PageCastQuery(query)
        // A page served a moment ago: no library or voice lookup, and its bytes from memory.
        let key = "\(id)\u{1F}\(page)\u{1F}\(voice.name ?? "")\u{1F}\(voice.speed.map { String($0) } ?? "")\u{1F}\(format.rawValue)\u{1F}\(cast?.key ?? "")"
        if let known = backend.pageMemo.resolution(for: key), access(known.path, R_OK) == 0 {
            return try await respond(request, tag: known.tag, path: known.path, format: format)
        }
        // One request looks it up again; the others meanwhile are served what was known.
        defer { backend.pageMemo.endRefresh(key) }
        var speech = try await resolve(id: id, page: page, voice: voice)
        speech.cast = try await cast?.resolve(for: speech, voice: voice, in: backend.environment)
        let tag = try await backend.entityTag(for: speech.speechRequest, format: format.rawValue)
        if let header = request.headers[.ifNoneMatch], SpeechController.matches(header, tag) {
            return Response(status: .notModified, headers: [.eTag: tag])
        }
        // A page not made yet, for a player that starts on its first sentence: streamed as it
        // is narrated (no length, no ranges), and kept as the file every later request gets.
        if query["stream"] == "true", request.headers[.range] == nil, access(backend.renderedPath(tag: tag, format: format), R_OK) != 0,
           let stream = try await backend.streamedPage(speech, format: format, path: backend.renderedPath(tag: tag, format: format)) {
            return try streamed(stream, format: format)
        }
        let path = try await backend.renderedPage(speech, format: format, tag: tag)
        backend.pageMemo.remember(key, tag: tag, path: path)
        return try await respond(request, tag: tag, path: path, format: format)
    }

    /// The voice a page's query asks for: `voice` (a name the catalog lists; none, the book's)
    /// and `speed` (OpenAI's factor on the voice's rate, 0.25 to 4; the engine speaks faster,
    /// so the text stays in step with the audio). The voice and lexicons `narrate page BOOK
    /// PAGE --voice NAME` reads the page with.
    /// - Throws: `APIError` 400 for a speed that is not a number.
    static func voice(_ query: Parameters) throws(APIError) -> VoiceRequest {
        let named = (query["voice"].map(String.init) ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        var speed: Double?
        if let given = query["speed"] {
            guard let number = Double(given), number.isFinite else {
                throw APIError.badRequest("The speed '\(given)' is not a number: give a factor from 0.25 to 4 (1 is the voice's own rate).", param: "speed")
            }
            speed = number
        }
        return VoiceRequest(name: named.isEmpty ? nil : named, speed: speed)
    }

    private func streamed(_ stream: SpeechStream, format: StreamFormat) throws -> Response {
        guard let first = stream.first else { throw APIError(.internalServerError, "No audio came.", code: "synthesis_failed") }
        let encoder: any AudioStreamEncoder
        do {
            encoder = try makeAudioStreamEncoder(format: format, sampleRate: first.sampleRate)
        } catch {
            throw APIError(
                .internalServerError, "The \(format.rawValue) encoder could not start; the service's log says why.", code: "encoder_failed",
                detail: "The \(format.rawValue) encoder could not start: \(error)")
        }
        let record = RequestRecord.current
        return Response(status: .ok, headers: [.contentType: format.contentType, .cacheControl: "no-cache"], body: ResponseBody { writer in
            try await SpeechController.streamAudio(stream, encoder: encoder, record: record, into: &writer)
        })
    }

    private func respond(_ request: Request, tag: String, path: String, format: StreamFormat) async throws -> Response {
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
                source = .memory(try await backend.pageMemo.bytes(for: tag) { try ByteRangeResponse.read(path, length: length) })
            } else {
                source = .file(path: path, length: length)
            }
        }
        return ByteRangeResponse.respond(with: source, contentType: format.contentType, tag: tag, range: request.headers[.range], ifRange: request.headers[.ifRange])
    }
}
