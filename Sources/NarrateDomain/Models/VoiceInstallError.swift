/// Failures of installing a Piper voice (`InstallVoiceUseCase`). Every case says what happened
/// and what to do; nothing is ever left under a voice's final file names.
public enum VoiceInstallError: Error, Sendable, Equatable {
    /// Neither a voice name (`en_US-lessac-medium`) nor an http(s) URL of an `.onnx` model.
    case invalidSource(String)
    /// The repository's `voices.json` lists no voice of that name.
    case unknownVoice(name: String, suggestions: [String], repository: String)
    /// The repository's `voices.json` cannot be read or lacks what it should hold.
    case invalidIndex(url: String, reason: String)
    /// The server has no such file (HTTP 404).
    case notFound(url: String)
    /// The server answered with another failure status.
    case httpStatus(url: String, status: Int)
    /// No connection could be made (refused, unknown host, reset).
    case unreachable(url: String, reason: String)
    /// The server did not answer, or stopped sending, in time.
    case timedOut(url: String, reason: String)
    /// The download stopped part way; what arrived is kept for the next run to resume.
    case interrupted(url: String, bytesDone: Int64, reason: String)
    /// The file is larger than allowed (`bytes` is `nil` when the server did not say).
    case tooLarge(url: String, bytes: Int64?, limit: Int64)
    /// The file's size differs from the one the repository lists.
    case sizeMismatch(file: String, expected: Int64, actual: Int64)
    /// The file's MD5 differs from the one the repository lists.
    case checksumMismatch(file: String, expected: String, actual: String)
    /// The downloaded configuration is not a usable Piper voice's.
    case invalidVoice(name: String, reason: String)
    /// A file or folder could not be written.
    case writeFailed(path: String, reason: String)
}

extension VoiceInstallError: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .invalidSource(text):
            "'\(text)' is neither a Piper voice name (like en_US-lessac-medium) nor an http(s) URL of an .onnx model. Give one of those."
        case let .unknownVoice(name, suggestions, repository):
            suggestions.isEmpty
                ? "The Piper voices repository \(repository) has no voice '\(name)'. Its voices.json lists them all."
                : "The Piper voices repository \(repository) has no voice '\(name)'. Did you mean \(suggestions.joined(separator: ", "))?"
        case let .invalidIndex(url, reason):
            "The voice list \(url) cannot be used (\(reason)). Check the repository's address, or give the model's URL."
        case let .notFound(url):
            "Not found (HTTP 404): \(url). Check the voice's name or URL and the repository's address."
        case let .httpStatus(url, status):
            "The server answered HTTP \(status) for \(url). Nothing was installed; try again later."
        case let .unreachable(url, reason):
            "Could not reach \(url) (\(reason)). Check the address and the network connection."
        case let .timedOut(url, reason):
            "\(url) timed out (\(reason)). Try again later: a second run resumes the download."
        case let .interrupted(url, bytesDone, reason):
            "The download of \(url) stopped after \(Self.amount(bytesDone)) (\(reason)). Run the same command again to resume it."
        case let .tooLarge(url, bytes, limit):
            "\(url) is \(bytes.map { "\(Self.amount($0))," } ?? "") larger than the \(Self.amount(limit)) allowed; nothing was installed. Raise the size limit if the file is what you want."
        case let .sizeMismatch(file, expected, actual):
            "The downloaded \(file) has \(actual) bytes where the repository lists \(expected); it was deleted and nothing was installed. Try again."
        case let .checksumMismatch(file, expected, actual):
            "The downloaded \(file) does not match its MD5 checksum (expected \(expected), got \(actual)); it was deleted and nothing was installed. Try again; if it fails again, the repository's file or voices.json is wrong."
        case let .invalidVoice(name, reason):
            "The downloaded voice \(name) cannot be used: \(reason). Nothing was installed."
        case let .writeFailed(path, reason):
            "Could not write \(path) (\(reason)). Check that the folder is writable and has free space, or choose another folder."
        }
    }

    /// A byte count for people: `512 bytes`, `63.2 MB`.
    static func amount(_ bytes: Int64) -> String {
        guard bytes >= 1_000_000 else { return bytes >= 1_000 ? "\(bytes / 1_000) kB" : "\(bytes) bytes" }
        let tenths = (bytes + 50_000) / 100_000
        return "\(tenths / 10).\(tenths % 10) MB"
    }
}
