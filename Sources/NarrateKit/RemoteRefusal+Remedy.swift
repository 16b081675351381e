import NarrateDomain

extension RemoteRefusal {
    /// The refusal with what to check among the remote engine's options, which `say`, `page`,
    /// `next`, `book` and `serve` all take under the same names: the one wording both front ends
    /// give it.
    public var withRemedy: String {
        switch self {
        case .keyFileUnreadable: "\(problem). Check --api-key-file."
        case .keyRejected: "\(problem). Set NARRATE_API_KEY or OPENAI_API_KEY, or give --api-key-file."
        case .keyNotPermitted: "\(problem). Check --remote-model and --remote-voice, and the key's permissions."
        case .notFound: "\(problem). Check --remote (the base, like https://api.openai.com/v1), --remote-model and --remote-voice."
        case .requestRejected: "\(problem). Check --remote-model, --remote-voice and the speed (--rate)."
        case .notAudio: "\(problem). Check --remote: it must be the API base, like https://api.openai.com/v1."
        case .keyFileEmpty, .notAnAPIBase, .emptyModelOrVoice, .requestNotEncodable, .refused, .audioTooLarge: description
        }
    }

    /// The one line for the refusal with HTTP `status` (0: refused before any request was sent,
    /// a bad URL or an unreadable key file), with what to check.
    public func line(status: Int) -> String {
        status == 0
            ? "The remote speech engine cannot be used: \(withRemedy)"
            : "The speech API refused the request (HTTP \(status)): \(withRemedy)"
    }
}
