/// Everything that can go wrong while turning text into speech.
public enum SpeechError: Error, Sendable, Equatable {
    case emptyText
    case voiceNotFound(String, suggestions: [String])
    case parameterOutOfRange(name: String, value: Int, range: ClosedRange<Int>)
    case engineUnavailable(reason: String)
    case synthesisFailed(code: Int, voice: String, textLength: Int)
    case cacheFailed(CacheError)
    case outputFailed(path: String, reason: String)
}

extension SpeechError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .emptyText:
            "There is no text to speak. Give a text, a file with -f, or pipe text on standard input."
        case let .voiceNotFound(name, suggestions):
            suggestions.isEmpty
                ? "Unknown voice '\(name)'. Run 'narrate voices' to list the voices."
                : "Unknown voice '\(name)'. Did you mean \(suggestions.joined(separator: ", "))? Run 'narrate voices' to list them all."
        case let .parameterOutOfRange(name, value, range):
            "The \(name) \(value) is out of range: use a value from \(range.lowerBound) to \(range.upperBound)."
        case let .engineUnavailable(reason):
            "The speech engine could not start: \(reason). Install eSpeak NG (apt-get install espeak-ng-data libespeak-ng1)."
        case let .synthesisFailed(code, voice, textLength):
            "eSpeak NG failed (error \(code)) on a text of \(textLength) characters with voice '\(voice)'."
        case let .cacheFailed(error):
            error.description
        case let .outputFailed(path, reason):
            "Could not write '\(path)': \(reason). Nothing was written; check the folder and free space, then try again."
        }
    }
}
