import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NarrateKit

/// `POST /v1/audio/speech`: OpenAI's speech API over the shared cache. The response starts
/// as soon as the first chunk is synthesized; a failure before that is a JSON error, one after
/// it ends the connection early (the body is then visibly cut short).
struct SpeechController: Sendable {
    let backend: SpeechBackend

    func register(on router: Router<ServerRequestContext>) {
        router.post("/v1/audio/speech") { request, context in
            try await speech(request, context: context)
        }
    }

    func speech(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let body = try await decode(request, context: context)
        guard OpenAIVoices.models.contains(body.model) else {
            throw APIError.badRequest("Unknown model '\(body.model)': use one of \(OpenAIVoices.models.joined(separator: ", ")).", param: "model", code: "model_not_found")
        }
        let input = body.input
        guard input.count <= backend.server.maxInput else {
            throw APIError.badRequest("input has \(input.count) characters; the most is \(backend.server.maxInput).", param: "input", code: "input_too_long")
        }
        let text = SpeechText(input)
        guard !text.isEmpty else {
            throw APIError.badRequest("input is empty: give some text to speak.", param: "input", code: "empty_input")
        }
        let formatName = body.responseFormat ?? "mp3"
        guard let format = StreamFormat(rawValue: formatName) else {
            throw APIError.badRequest("Unknown response_format '\(formatName)': use one of \(StreamFormat.allCases.map(\.rawValue).joined(separator: ", ")).", param: "response_format")
        }
        let isSSE: Bool
        switch body.streamFormat ?? "audio" {
        case "audio": isSSE = false
        case "sse": isSSE = true
        case let other: throw APIError.badRequest("Unknown stream_format '\(other)': use audio or sse.", param: "stream_format")
        }
        let voice = try await backend.voice(named: body.voice, speed: body.speed ?? 1.0)
        let tag = try await backend.entityTag(for: text.request(voice: voice), format: format.rawValue + (isSSE ? "-sse" : ""))
        if request.headers[.ifNoneMatch].map({ Self.matches($0, tag) }) == true {
            return Response(status: .notModified, headers: [.eTag: tag])
        }
        let speech = try await backend.speak(text, voice: voice, channel: context.channel)
        guard let first = speech.first else { throw APIError(.internalServerError, "No audio came.", code: "synthesis_failed") }
        let single = text.chunks(for: voice).count == 1
        let encoder: any AudioStreamEncoder
        do {
            encoder = try makeAudioStreamEncoder(format: format, sampleRate: first.sampleRate, knownSampleCount: single && !isSSE ? first.samples.count : nil)
        } catch {
            throw APIError(
                .internalServerError, "The \(format.rawValue) encoder could not start; the service's log says why.", code: "encoder_failed",
                detail: "The \(format.rawValue) encoder could not start: \(error)")
        }
        let record = RequestRecord.current
        var headers: HTTPFields = [.eTag: tag, .cacheControl: "no-cache"]
        headers[.contentType] = isSSE ? "text/event-stream" : format.contentType
        if let record { headers[HTTPField.Name("X-Narrate-Cache")!] = record.cache }
        if isSSE {
            let characters = input.count
            return Response(status: .ok, headers: headers, body: ResponseBody { writer in
                try await Self.streamEvents(speech, encoder: encoder, characters: characters, record: record, into: &writer)
            })
        }
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            try await Self.streamAudio(speech, encoder: encoder, record: record, into: &writer)
        })
    }

    /// Whether an `If-None-Match` value names `tag` (or is `*`).
    static func matches(_ header: String, _ tag: String) -> Bool {
        header.split(separator: ",").contains { part in
            let value = part.trimmingCharacters(in: .whitespaces)
            return value == "*" || value == tag || value == "W/" + tag
        }
    }

    private func decode(_ request: Request, context: ServerRequestContext) async throws -> SpeechRequestBody {
        // JSON escapes make a character up to 12 bytes; the rest of the body is small.
        let limit = backend.server.maxInput * 12 + 16_384
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: limit)
        } catch {
            throw APIError(.contentTooLarge, "The request body is larger than \(limit) bytes; input may have \(backend.server.maxInput) characters.", param: "input", code: "input_too_long")
        }
        do {
            return try JSONDecoder().decode(SpeechRequestBody.self, from: Data(buffer.readableBytesView))
        } catch let DecodingError.keyNotFound(key, _) {
            throw APIError.badRequest("Missing required parameter: '\(key.stringValue)'.", param: key.stringValue, code: "missing_required_parameter")
        } catch let DecodingError.typeMismatch(_, context) {
            let name = context.codingPath.first?.stringValue
            throw APIError.badRequest("Invalid type for '\(name ?? "body")': \(context.debugDescription)", param: name, code: "invalid_type")
        } catch let DecodingError.valueNotFound(_, context) {
            let name = context.codingPath.first?.stringValue
            throw APIError.badRequest("'\(name ?? "body")' must not be null.", param: name, code: "invalid_type")
        } catch {
            throw APIError.badRequest("The body is not a JSON object of OpenAI's speech request: send {\"model\", \"input\", \"voice\"}.", code: "invalid_json")
        }
    }

    /// Feeds the chunks to the encoder in a child task while this one writes what comes out.
    static func streamAudio(_ speech: SpeechStream, encoder: any AudioStreamEncoder, record: RequestRecord?, into writer: inout any ResponseBodyWriter) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await feed(speech, to: encoder, onChunk: { _, _ in }) }
            do {
                try await send(encoder.output, to: &writer, record: record)
                try await group.waitForAll()
            } catch {
                encoder.cancel()
                group.cancelAll()
                throw error
            }
        }
        try await writer.finish(nil)
    }

    /// Server-sent events: OpenAI's `speech.audio.delta` (base64 audio) and `speech.audio.done`,
    /// and Narrate's `speech.word` (a word's text offset and length in the normalized input and
    /// its start time in seconds), for read-along.
    static func streamEvents(_ speech: SpeechStream, encoder: any AudioStreamEncoder, characters: Int, record: RequestRecord?, into writer: inout any ResponseBodyWriter) async throws {
        let (events, sink) = AsyncThrowingStream.makeStream(of: [UInt8].self, throwing: (any Error).self)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await feed(speech, to: encoder) { audio, samplesBefore in
                    for mark in audio.wordMarks {
                        let seconds = Double(samplesBefore + mark.sampleOffset) / Double(audio.sampleRate)
                        sink.yield(event(#"{"type":"speech.word","text_offset":\#(mark.textOffset),"text_length":\#(mark.textLength),"start":\#(String(format: "%.3f", seconds))}"#))
                    }
                }
            }
            group.addTask {
                do {
                    var outputBytes = 0
                    for try await bytes in encoder.output {
                        outputBytes += bytes.count
                        sink.yield(event(#"{"type":"speech.audio.delta","audio":"\#(Data(bytes).base64EncodedString())"}"#))
                    }
                    // Tokens as OpenAI counts them are unknown here: characters in, bytes out / 1000.
                    let outputTokens = outputBytes / 1_000
                    sink.yield(event(#"{"type":"speech.audio.done","usage":{"input_tokens":\#(characters),"output_tokens":\#(outputTokens),"total_tokens":\#(characters + outputTokens)}}"#))
                    sink.finish()
                } catch {
                    sink.finish(throwing: error)
                    throw error
                }
            }
            do {
                try await send(events, to: &writer, record: record)
                try await group.waitForAll()
            } catch {
                encoder.cancel()
                group.cancelAll()
                throw error
            }
        }
        try await writer.finish(nil)
    }

    /// Writes each part as it comes, counting the bytes for the request's log line.
    private static func send(_ parts: AsyncThrowingStream<[UInt8], any Error>, to writer: inout any ResponseBodyWriter, record: RequestRecord?) async throws {
        for try await bytes in parts {
            try await writer.write(ByteBuffer(bytes: bytes))
            record?.sent(bytes.count)
        }
    }

    private static func event(_ json: String) -> [UInt8] {
        Array("data: \(json)\n\n".utf8)
    }

    /// Hands every chunk to the encoder, then finishes it; on failure the encoder is stopped.
    private static func feed(_ speech: SpeechStream, to encoder: any AudioStreamEncoder, onChunk: (SpeechAudio, Int) -> Void) async throws {
        do {
            var samplesBefore = 0
            while let audio = try await speech.next() {
                onChunk(audio, samplesBefore)
                samplesBefore += audio.samples.count
                // A quarter of a second at a time: a chunk's first frames go out while the
                // rest is encoded (an MP3 encoder takes a while over a page of audio), and
                // the encoders give the same bytes however their input is cut.
                let slice = max(audio.sampleRate / 4, 1)
                var start = 0
                while start < audio.samples.count {
                    let end = min(start + slice, audio.samples.count)
                    try encoder.feed(Array(audio.samples[start..<end]))
                    start = end
                    await Task.yield()
                }
            }
            try encoder.finish()
        } catch {
            encoder.cancel()
            throw error
        }
    }
}
