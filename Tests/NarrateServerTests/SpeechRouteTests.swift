import Foundation
import HTTPTypes
import NIOCore
import HummingbirdTesting
import Testing
@testable import NarrateServer

/// `POST /v1/audio/speech` in process: each format's headers and body, the entity tag, and
/// every refusal in OpenAI's error shape.
@Suite("Speech routes")
struct SpeechRouteTests {
    @Test("Given a sentence, when it is asked for as wav, then it is a 22,050 Hz mono 16-bit WAV whose sizes are true")
    func wav() async throws {
        try await RouteTestServer().test { client in
            let response = try await client.speech("A short sentence.", format: "wav")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "audio/wav")
            #expect(response.headers[.cacheControl] == "no-cache")
            #expect(response.header("X-Narrate-Cache") == "miss")
            #expect(response.headers[.eTag]?.hasPrefix("\"") == true)
            let wav = try #require(WAVHeader(response.bytes))
            #expect(wav.format == 1)
            #expect(wav.channels == 1)
            #expect(wav.sampleRate == 22_050)
            #expect(wav.bitsPerSample == 16)
            #expect(Int(wav.dataSize) == wav.dataBytes)
            #expect(wav.seconds > 0.3)

            // Said again, it comes from the cache, sample for sample.
            let again = try await client.speech("A short sentence.", format: "wav")
            #expect(again.header("X-Narrate-Cache") == "hit")
            #expect(again.bytes == response.bytes)
        }
    }

    @Test("Given a sentence, when it is asked for as pcm, then it is raw 16-bit samples at 24 kHz, as long as the wav")
    func pcm() async throws {
        try await RouteTestServer().test { client in
            let wav = try #require(WAVHeader(try await client.speech("Twenty four thousand.", format: "wav").bytes))
            let response = try await client.speech("Twenty four thousand.", format: "pcm")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "audio/pcm")
            #expect(response.bytes.count.isMultiple(of: 2))
            let expected = wav.seconds * 24_000 * 2
            #expect(abs(Double(response.bytes.count) - expected) < expected * 0.01)
        }
    }

    @Test("Given a sentence, when it is asked for as mp3 (the default), then it is MPEG audio")
    func mp3() async throws {
        try await RouteTestServer().test { client in
            let body = try JSONSerialization.data(withJSONObject: ["model": "tts-1", "input": "An MP3 sentence.", "voice": "alloy"])
            let response = try await client.post("/v1/audio/speech", body: Array(body))
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "audio/mpeg")
            let bytes = response.bytes
            #expect(bytes.count > 1_000)
            // An ID3 tag or straight away an MPEG frame's sync word.
            #expect(bytes.starts(with: Array("ID3".utf8)) || (bytes[0] == 0xFF && bytes[1] & 0xE0 == 0xE0))
        }
    }

    @Test("Given stream_format sse, when speech is asked for, then audio deltas come as events and a done event with usage ends them")
    func serverSentEvents() async throws {
        try await RouteTestServer().test { client in
            let response = try await client.speech("Events please.", format: "pcm", extra: ["stream_format": "sse"])
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/event-stream")
            let events = String(decoding: response.bytes, as: UTF8.self).components(separatedBy: "\n\n").filter { !$0.isEmpty }
            #expect(events.allSatisfy { $0.hasPrefix("data: {") })
            #expect(events.contains { $0.contains(#""type":"speech.audio.delta""#) })
            #expect(events.contains { $0.contains(#""type":"speech.word""#) })
            #expect(events.last?.contains(#""type":"speech.audio.done""#) == true)
            #expect(events.last?.contains(#""input_tokens":14"#) == true)
        }
    }

    @Test("Given a response's ETag, when it is asked for again with If-None-Match, then the answer is 304 with no body; another format has another tag")
    func entityTag() async throws {
        try await RouteTestServer().test { client in
            let first = try await client.speech("Tagged speech.", format: "wav")
            let tag = try #require(first.headers[.eTag])
            let notModified = try await client.speech("Tagged speech.", format: "wav", headers: [.ifNoneMatch: tag])
            #expect(notModified.status == .notModified)
            #expect(notModified.body.readableBytes == 0)
            #expect(notModified.headers[.eTag] == tag)
            let weak = try await client.speech("Tagged speech.", format: "wav", headers: [.ifNoneMatch: "\"other\", W/\(tag)"])
            #expect(weak.status == .notModified)
            let pcm = try await client.speech("Tagged speech.", format: "pcm")
            #expect(pcm.headers[.eTag] != tag)
        }
    }

    @Test("Given an OpenAI voice object and a speed, when speech is asked for, then it is spoken")
    func voiceObjectAndSpeed() async throws {
        try await RouteTestServer().test { client in
            let normal = try #require(WAVHeader(try await client.speech("Faster and faster.", format: "wav").bytes))
            let body = try JSONSerialization.data(withJSONObject: ["model": "tts-1", "input": "Faster and faster.", "voice": ["id": "alloy"], "response_format": "wav", "speed": 2.0])
            let response = try await client.post("/v1/audio/speech", body: Array(body))
            #expect(response.status == .ok)
            let fast = try #require(WAVHeader(response.bytes))
            #expect(fast.seconds < normal.seconds * 0.75)
        }
    }

    // MARK: - Errors

    @Test("Given whitespace for input, when speech is asked for, then 400 empty_input on param input")
    func emptyInput() async throws {
        try await RouteTestServer().test { client in
            let response = try await client.speech("  \n ")
            #expect(response.status == .badRequest)
            #expect(response.headers[.contentType] == "application/json")
            #expect(response.apiError?.keys == APIErrorBody.openAIKeys)
            #expect(response.apiError?.type == "invalid_request_error")
            #expect(response.apiError?.param == "input")
            #expect(response.apiError?.code == "empty_input")
        }
    }

    @Test("Given a voice nobody knows, when speech is asked for, then 400 voice_not_found on param voice")
    func unknownVoice() async throws {
        try await RouteTestServer().test { client in
            let response = try await client.speech("Hello.", voice: "no-such-voice")
            #expect(response.status == .badRequest)
            #expect(response.apiError?.keys == APIErrorBody.openAIKeys)
            #expect(response.apiError?.type == "invalid_request_error")
            #expect(response.apiError?.param == "voice")
            #expect(response.apiError?.code == "voice_not_found")
            #expect(response.apiError?.message?.contains("GET /v1/audio/voices") == true)
        }
    }

    @Test("Given a speed eSpeak cannot do with the voice, when speech is asked for, then 400 speed_out_of_range naming the usable speeds")
    func speedOutOfRange() async throws {
        try await RouteTestServer().test { client in
            let response = try await client.speech("Hello.", extra: ["speed": 4.0])
            #expect(response.status == .badRequest)
            #expect(response.apiError?.param == "speed")
            #expect(response.apiError?.code == "speed_out_of_range")
            #expect(response.apiError?.message?.contains("0.46 to 2.57") == true)
        }
    }

    @Test("Given a format, stream format or model that is not offered, when speech is asked for, then 400 on that param")
    func unknownChoices() async throws {
        try await RouteTestServer().test { client in
            let format = try await client.speech("Hello.", format: "ogg")
            #expect(format.status == .badRequest)
            #expect(format.apiError?.param == "response_format")
            #expect(format.apiError?.code == nil)
            #expect(format.apiError?.keys == APIErrorBody.openAIKeys)

            let stream = try await client.speech("Hello.", extra: ["stream_format": "chunks"])
            #expect(stream.status == .badRequest)
            #expect(stream.apiError?.param == "stream_format")

            let model = try await client.speech("Hello.", extra: ["model": "tts-2"])
            #expect(model.status == .badRequest)
            #expect(model.apiError?.param == "model")
            #expect(model.apiError?.code == "model_not_found")
        }
    }

    @Test("Given a body that is not the request's JSON, when it is posted, then 400 invalid_json, missing_required_parameter or invalid_type")
    func badJSON() async throws {
        try await RouteTestServer().test { client in
            let notJSON = try await client.post("/v1/audio/speech", body: Array("{not json".utf8))
            #expect(notJSON.status == .badRequest)
            #expect(notJSON.apiError?.code == "invalid_json")
            #expect(notJSON.apiError?.param == nil)
            #expect(notJSON.apiError?.keys == APIErrorBody.openAIKeys)

            let missing = try await client.post("/v1/audio/speech", body: Array(#"{"model":"tts-1","voice":"alloy"}"#.utf8))
            #expect(missing.status == .badRequest)
            #expect(missing.apiError?.code == "missing_required_parameter")
            #expect(missing.apiError?.param == "input")

            let wrongType = try await client.post("/v1/audio/speech", body: Array(#"{"model":"tts-1","voice":"alloy","input":"Hi.","speed":"fast"}"#.utf8))
            #expect(wrongType.status == .badRequest)
            #expect(wrongType.apiError?.code == "invalid_type")
            #expect(wrongType.apiError?.param == "speed")
        }
    }

    @Test("Given input longer than --max-input, when speech is asked for, then 400 input_too_long; a body far larger is 413")
    func tooLong() async throws {
        try await RouteTestServer { $0.maxInput = 100 }.test { client in
            let long = try await client.speech(String(repeating: "word ", count: 30))
            #expect(long.status == .badRequest)
            #expect(long.apiError?.param == "input")
            #expect(long.apiError?.code == "input_too_long")

            let huge = try await client.speech(String(repeating: "w", count: 100 * 12 + 16_384 + 1))
            #expect(huge.status == .contentTooLarge)
            #expect(huge.apiError?.type == "invalid_request_error")
            #expect(huge.apiError?.code == "input_too_long")
        }
    }

    @Test("Given a path nobody serves, when it is asked for, then 404 in the same error shape")
    func unknownRoute() async throws {
        try await RouteTestServer().test { client in
            let response = try await client.get("/v1/nothing-here")
            #expect(response.status == .notFound)
            #expect(response.headers[.contentType] == "application/json")
            #expect(response.apiError?.type == "not_found_error")
            #expect(response.apiError?.keys == APIErrorBody.openAIKeys)
        }
    }
}
