import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// An error in OpenAI's shape, `{"error":{"message","type","param","code"}}`: every failure of
/// the HTTP service is answered with one, never with a stack trace.
public struct APIError: Error, HTTPResponseError, Sendable {
    public var status: HTTPResponse.Status
    public var message: String
    /// OpenAI's error type: `invalid_request_error`, `authentication_error`, `rate_limit_error`,
    /// `server_error`, `not_found_error`.
    public var type: String
    public var param: String?
    public var code: String?
    /// Seconds a client should wait (429, 503).
    public var retryAfter: Int?
    /// What the service's log says beyond `message`: the full cause, which may name the
    /// server's files. Never sent to a client (`ErrorDisclosure` logs it).
    public var detail: String?

    public init(
        _ status: HTTPResponse.Status, _ message: String, type: String? = nil, param: String? = nil, code: String? = nil, retryAfter: Int? = nil,
        detail: String? = nil
    ) {
        self.detail = detail
        self.status = status
        self.message = message
        self.type = type ?? Self.defaultType(for: status)
        self.param = param
        self.code = code
        self.retryAfter = retryAfter
    }

    static func defaultType(for status: HTTPResponse.Status) -> String {
        switch status.code {
        case 401: "authentication_error"
        case 403: "permission_error"
        case 404: "not_found_error"
        case 429: "rate_limit_error"
        case 400..<500: "invalid_request_error"
        default: "server_error"
        }
    }

    static func badRequest(_ message: String, param: String? = nil, code: String? = nil) -> APIError {
        APIError(.badRequest, message, param: param, code: code)
    }

    static func notFound(_ message: String) -> APIError {
        APIError(.notFound, message, code: "not_found")
    }

    /// The JSON body.
    var body: [UInt8] {
        struct Envelope: Encodable {
            struct Inner: Encodable {
                var message: String
                var type: String
                var param: String?
                var code: String?
                func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: CodingKeys.self)
                    try container.encode(message, forKey: .message)
                    try container.encode(type, forKey: .type)
                    try container.encode(param, forKey: .param)
                    try container.encode(code, forKey: .code)
                }
                enum CodingKeys: String, CodingKey { case message, type, param, code }
            }
            var error: Inner
        }
        let envelope = Envelope(error: .init(message: message, type: type, param: param, code: code))
        return Array((try? JSONEncoder().encode(envelope)) ?? Data(#"{"error":{"message":"error","type":"server_error","param":null,"code":null}}"#.utf8))
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        if status == .unauthorized { headers[.wwwAuthenticate] = "Bearer" }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
