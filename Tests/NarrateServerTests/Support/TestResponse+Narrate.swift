import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore

extension TestResponse {
    /// The body's bytes.
    var bytes: [UInt8] { Array(body.readableBytesView) }
    var string: String { String(decoding: body.readableBytesView, as: UTF8.self) }

    /// The body as a JSON object, or `nil`.
    var json: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(body.readableBytesView))) as? [String: Any]
    }

    /// The `error` object of an OpenAI-shaped error body, or `nil`.
    var apiError: APIErrorBody? {
        guard let error = json?["error"] as? [String: Any] else { return nil }
        return APIErrorBody(
            keys: error.keys.sorted(), message: error["message"] as? String, type: error["type"] as? String,
            param: error["param"] as? String, code: error["code"] as? String
        )
    }

    func header(_ name: String) -> String? {
        headers[HTTPField.Name(name)!]
    }
}

/// What a test checks of an error: every key present, and their values.
struct APIErrorBody: Equatable {
    var keys: [String]
    var message: String?
    var type: String?
    var param: String?
    var code: String?

    /// The four keys OpenAI's errors have, `param` and `code` possibly null.
    static let openAIKeys = ["code", "message", "param", "type"]
}

extension TestClientProtocol {
    /// `POST /v1/audio/speech` with OpenAI's body; `extra` adds or replaces fields.
    func speech(_ input: String, voice: String = "alloy", format: String = "wav", extra: [String: any Sendable] = [:], headers: HTTPFields = [:]) async throws -> TestResponse {
        var fields: [String: Any] = ["model": "tts-1", "input": input, "voice": voice, "response_format": format]
        for (key, value) in extra { fields[key] = value }
        let body = try JSONSerialization.data(withJSONObject: fields)
        return try await post("/v1/audio/speech", body: Array(body), headers: headers)
    }

    func post(_ uri: String, body: [UInt8], headers: HTTPFields = [:]) async throws -> TestResponse {
        var headers = headers
        if headers[.contentType] == nil { headers[.contentType] = "application/json" }
        return try await execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(bytes: body))
    }

    func get(_ uri: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await execute(uri: uri, method: .get, headers: headers)
    }
}
