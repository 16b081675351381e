import HTTPTypes
import NarrateKit

/// A speech error in the service's words: the client's fault is 400, the engine's or the
/// upstream API's 5xx, each with the parameter it is about and a stable code. A client learns
/// nothing of the machine: a voice is named as the client gave it, and what names the server's
/// files (a model, the cache, the worker) goes to the log alone, as `detail`.
extension APIError {
    init(_ error: SpeechError) {
        switch error {
        case .emptyText:
            self = .badRequest("There is no text to speak.", param: "input", code: "empty_input")
        case let .voiceNotFound(name, suggestions):
            self = .badRequest(Self.unknownVoice(name, suggestions: suggestions), param: "voice", code: "voice_not_found")
            detail = "unknown voice '\(name)'"
        case let .textTooLong(hours, limit):
            self = .badRequest(
                "This text would give about \(SpeechError.amount(hours)) hours of audio, more than the \(SpeechError.amount(limit)) hours one run may make. Nothing was synthesized; split the text, or add it as a book and export it (narrate add, narrate book).",
                param: "input", code: "input_out_of_bounds")
        case let .speedOutOfRange(speed, usable, rate):
            self = .badRequest(
                "speed \(speed) is more than eSpeak can do with this voice: use \(SpeechError.twoDecimals(usable.lowerBound)) to \(SpeechError.twoDecimals(usable.upperBound)) (1.0 is \(rate) words per minute).",
                param: "speed", code: "speed_out_of_range")
        case .parameterOutOfRange, .pauseTooLong, .audioTooLong:
            self = .badRequest(error.description, param: "input", code: "input_out_of_bounds")
        case .engineUnavailable:
            self = APIError(
                .serviceUnavailable, "Synthesis is unavailable: the speech engine cannot run, and this text is not in the cache; the service's log says why. Try again later.",
                code: "engine_unavailable", retryAfter: 5, detail: error.description)
        case .synthesisFailed, .engineFailed:
            self = APIError(
                .internalServerError, error.chunkFailure + "; the worker was replaced, other requests are not affected.", code: "synthesis_failed",
                detail: error.description)
        case .cacheFailed, .outputFailed:
            self = APIError(.internalServerError, "The service could not store or read the audio; its log says why.", code: "cache_failed", detail: error.description)
        // The upstream API's faults are this service's: a gateway error, never its key.
        case let .remoteRefused(status, reason):
            self = APIError(.badGateway, reason.line(status: status), code: "upstream_refused")
        case let .remoteUnavailable(host, attempts, reason):
            self = APIError(
                .badGateway,
                "The speech API at \(host) could not deliver after \(attempts) attempt\(attempts == 1 ? "" : "s") (\(reason)). Try again later, or add --fallback espeak to speak such text with eSpeak NG.",
                code: "upstream_unavailable", retryAfter: 5)
        case let .characterLimitReached(limit, sent, needed):
            self = APIError(
                .tooManyRequests,
                "Sending \(needed) more characters to the speech API would pass --max-characters \(limit) (\(sent) sent in this run); nothing past the cap was sent. Raise --max-characters to go on: audio already in the cache costs nothing.",
                code: "character_limit_reached")
        case let .remoteUnsupported(what):
            self = .badRequest("The remote speech engine cannot \(what); drop --remote to use eSpeak NG for it.", param: "input", code: "unsupported_by_upstream")
        case let .voiceFailed(voice, _):
            // The voice's name only: the reason names its files.
            self = APIError(
                .serviceUnavailable,
                "The voice '\(voice)' is installed but cannot speak now; the service's log says why. Choose another voice (GET /v1/audio/voices lists them).",
                code: "voice_unavailable", detail: error.description)
        }
    }

    /// "Unknown voice 'x'. Did you mean y?", with where the voices are listed.
    private static func unknownVoice(_ name: String, suggestions: [String]) -> String {
        "Unknown voice '\(name)'.\(suggestions.isEmpty ? "" : " Did you mean \(suggestions.joined(separator: ", "))?") GET /v1/audio/voices lists them."
    }
}
