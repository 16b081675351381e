/// Everything that can go wrong while turning text into speech. The cases carry what a front end
/// needs to word them; `description` says what happened and what to do in the library's terms,
/// and names no command, option or route of a front end.
public enum SpeechError: Error, Sendable, Equatable {
    case emptyText
    case voiceNotFound(String, suggestions: [String])
    case parameterOutOfRange(name: String, value: Int, range: ClosedRange<Int>)
    /// OpenAI's `speed` asks for a rate the voice cannot reach: `usable` are the speeds it can
    /// (`VoiceProfile.speedRange`), 1 being `rate` words per minute.
    case speedOutOfRange(speed: Double, usable: ClosedRange<Double>, rate: Int)
    case engineUnavailable(reason: String)
    case synthesisFailed(code: Int, voice: String, textLength: Int)
    /// The engine process serving one text crashed, hung past its deadline or exited; `text`
    /// is the text it was given, `engine` what spoke it, as a sentence starts with it
    /// ("eSpeak NG", "The Piper voice en_US-joe-medium").
    case engineFailed(reason: String, text: String, engine: String = "eSpeak NG")
    /// The audio of one text would be longer than the engine's limit.
    case audioTooLong(limitSeconds: Int)
    /// An SSML break asks for a longer pause than `SpeechBounds` allows.
    case pauseTooLong(seconds: Double, limitSeconds: Double)
    /// The text would give more audio than `SpeechBounds` allows.
    case textTooLong(estimatedHours: Double, limitHours: Double)
    case cacheFailed(CacheError)
    /// The audio could not be written.
    case outputFailed(OutputError)
    /// A remote speech API refused the request (400, 401, 403, 404: not retried), or cannot be
    /// used at all (status 0: a bad URL, an unreadable key file); `reason` says why.
    case remoteRefused(status: Int, reason: RemoteRefusal)
    /// A remote speech API could not deliver, after its retries; `reason` names the last failure.
    case remoteUnavailable(host: String, attempts: Int, reason: String)
    /// Sending a text of `needed` characters would pass the run's cap on characters sent to the
    /// API (`limit`), `sent` characters having gone to it already.
    case characterLimitReached(limit: Int, sent: Int, needed: Int)
    /// The remote engine cannot do what was asked (SSML, phonemes).
    case remoteUnsupported(String)
    /// A Piper voice cannot be used: ONNX Runtime is missing, its model or configuration is
    /// damaged or not a Piper voice's; `reason` says which and what to do.
    case voiceFailed(voice: String, reason: String)
}

extension SpeechError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .emptyText:
            "There is no text to speak. Give some text."
        case let .voiceNotFound(name, suggestions):
            suggestions.isEmpty
                ? "Unknown voice '\(name)'. Choose one of the installed voices."
                : "Unknown voice '\(name)'. Did you mean \(suggestions.joined(separator: ", "))? Choose one of the installed voices."
        case let .parameterOutOfRange(name, value, range):
            "The \(name) \(value) is out of range: use a value from \(range.lowerBound) to \(range.upperBound)."
        case let .speedOutOfRange(speed, usable, rate):
            "Speed \(speed) is more than eSpeak can do with this voice: use \(Self.twoDecimals(usable.lowerBound)) to \(Self.twoDecimals(usable.upperBound)) (1.0 is \(rate) words per minute)."
        case let .engineUnavailable(reason):
            "The speech engine could not start: \(reason). Install eSpeak NG (apt-get install espeak-ng-data libespeak-ng1)."
        case let .synthesisFailed(code, voice, textLength):
            "eSpeak NG failed (error \(code)) on a text of \(textLength) characters with voice '\(voice)'."
        case let .engineFailed(reason, text, engine):
            "\(engine) \(reason) on the text \u{201C}\(Self.excerpt(text))\u{201D}; nothing was written. Rephrase or remove that text and try again."
        case let .audioTooLong(limit):
            "The audio of one text would last longer than \(limit / 60) minutes, the most one utterance may; nothing was written. Shorten the text or its pauses."
        case let .pauseTooLong(seconds, limit):
            "An SSML <break> asks for a pause of \(Self.amount(seconds)) seconds; one pause may last \(Self.amount(limit)) seconds at most. Nothing was synthesized."
        case let .textTooLong(hours, limit):
            "This text would give about \(Self.amount(hours)) hours of audio, more than the \(Self.amount(limit)) hours one run may make. Nothing was synthesized; split the text, or add it as a book and export it."
        case let .cacheFailed(error):
            error.description
        case let .outputFailed(error):
            error.description
        case let .remoteRefused(status, reason):
            // Status 0: refused before any request (a bad URL, an unreadable key file).
            status == 0 ? "The remote speech engine cannot be used: \(reason)" : "The speech API refused the request (HTTP \(status)): \(reason)"
        case let .remoteUnavailable(host, attempts, reason):
            "The speech API at \(host) could not deliver after \(attempts) attempt\(attempts == 1 ? "" : "s") (\(reason)). Try again later, or fall back to eSpeak NG for such text."
        case let .characterLimitReached(limit, sent, needed):
            "Sending \(needed) more characters to the speech API would pass the cap of \(limit) characters (\(sent) sent in this run); nothing past the cap was sent. Raise the cap to go on: audio already in the cache costs nothing."
        case let .remoteUnsupported(what):
            "The remote speech engine cannot \(what); use eSpeak NG for it."
        case let .voiceFailed(voice, reason):
            "The voice '\(voice)' cannot speak: \(reason). Nothing was synthesized."
        }
    }
}

extension SpeechError {
    /// Whether every other text of the run would fail the same way (the API refused the key or
    /// the request, the cap on characters is reached, the engine cannot do it): a batch stops.
    public var stopsEveryText: Bool {
        switch self {
        case .remoteRefused, .characterLimitReached, .remoteUnsupported, .voiceFailed, .engineUnavailable: true
        default: false
        }
    }

    /// This error as the reason one chunk of a longer text failed, without the advice that
    /// the whole message gives.
    public var chunkFailure: String {
        switch self {
        case let .engineFailed(reason, text, engine): "\(engine) \(reason) on \u{201C}\(Self.excerpt(text))\u{201D}"
        default: description
        }
    }

    /// A speed for a message, to two decimals.
    public static func twoDecimals(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        return "\(hundredths / 100).\(String(hundredths % 100 + 100).dropFirst())"
    }

    /// A number for a message: whole when it is, one decimal otherwise, "more than a billion"
    /// for the absurd.
    public static func amount(_ value: Double) -> String {
        guard value.isFinite, value < 1e9 else { return "more than a billion" }
        let tenths = (value * 10).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? String(Int(tenths / 10)) : String(tenths / 10)
    }

    /// The first 60 characters of `text` on one line, for naming a chunk in a message.
    public static func excerpt(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return line.count > 60 ? String(line.prefix(60)) + "\u{2026}" : line
    }
}
