/// Why a remote speech API cannot be used, or refused a request: what a front end needs to say
/// which of its settings to check. The server's own message (`apiSays`) is kept short and never
/// carries the key.
public enum RemoteRefusal: Sendable, Equatable {
    /// The API key file cannot be read.
    case keyFileUnreadable(path: String)
    /// The API key file has no key on its first line.
    case keyFileEmpty(path: String)
    /// The URL is not an http(s) API base with a host.
    case notAnAPIBase(url: String)
    /// The remote model or voice is empty.
    case emptyModelOrVoice
    /// The request could not be encoded as JSON.
    case requestNotEncodable
    /// HTTP 401: the key was refused.
    case keyRejected(apiSays: String?)
    /// HTTP 403: the key may not use this model or voice.
    case keyNotPermitted(apiSays: String?)
    /// HTTP 404: no such endpoint, model or voice.
    case notFound(apiSays: String?)
    /// HTTP 400 or 422: the request was rejected (a model, voice or speed the API does not take).
    case requestRejected(apiSays: String?)
    /// Any other status that is not retried.
    case refused(apiSays: String?)
    /// A success whose body is not audio (`contentType`, empty when none was given): the URL is
    /// not the API base.
    case notAudio(contentType: String)
    /// The audio is larger than `limitBytes`, one text's most: `bytes` as declared, `nil` when
    /// the body ran past the limit as it came.
    case audioTooLarge(bytes: Int?, limitBytes: Int)
}

extension RemoteRefusal: CustomStringConvertible {
    /// What happened and what to check, in the library's terms.
    public var description: String {
        switch self {
        case .keyFileUnreadable: "\(problem). Check the key file's path."
        case .keyFileEmpty: "\(problem). Put the key on its first line."
        case .notAnAPIBase: "\(problem). Give one like https://api.openai.com/v1 or http://127.0.0.1:8880/v1."
        case .emptyModelOrVoice: "\(problem)."
        case .requestNotEncodable, .audioTooLarge: problem
        case .keyRejected: "\(problem). Check the API key."
        case .keyNotPermitted: "\(problem). Check the model and the voice, and the key's permissions."
        case .notFound: "\(problem). Check the API's base URL (like https://api.openai.com/v1), the model and the voice."
        case .requestRejected: "\(problem). Check the model, the voice and the speed."
        case .refused: "\(problem)."
        case .notAudio: "\(problem). Check the API's URL: it must be the API base, like https://api.openai.com/v1."
        }
    }

    /// What happened, without advice and without a full stop.
    public var problem: String {
        switch self {
        case let .keyFileUnreadable(path): "the API key file \(path) cannot be read"
        case let .keyFileEmpty(path): "the API key file \(path) is empty"
        case let .notAnAPIBase(url): "'\(url)' is not an API base URL"
        case .emptyModelOrVoice: "the remote model and voice must not be empty"
        case .requestNotEncodable: "the request could not be encoded"
        case let .keyRejected(apiSays): "the API key was refused\(Self.detail(apiSays))"
        case let .keyNotPermitted(apiSays): "the API key may not use this model or voice\(Self.detail(apiSays))"
        case let .notFound(apiSays): "the API has no such endpoint, model or voice\(Self.detail(apiSays))"
        case let .requestRejected(apiSays): "the API rejected the request\(Self.detail(apiSays))"
        case let .refused(apiSays): "the API refused the request\(Self.detail(apiSays))"
        case let .notAudio(type): "the API answered \(type.isEmpty ? "something without a content type" : type), not audio"
        case let .audioTooLarge(bytes?, limit): "the audio would be \(bytes) bytes, more than the \(limit >> 20) MiB one text may give"
        case let .audioTooLarge(nil, limit): "the audio is longer than the \(limit >> 20) MiB one text may give"
        }
    }

    private static func detail(_ apiSays: String?) -> String {
        apiSays.map { " (the API says: \($0))" } ?? ""
    }
}
