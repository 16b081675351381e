/// What can go wrong with a user's own pronunciation lexicon (`--lexicon`).
public enum PronunciationError: Error, Sendable, Equatable {
    /// The file could not be read, or is not a PLS lexicon; `reason` says why.
    case unreadableLexicon(path: String, reason: String)
    /// More lexicons than may be in force at once.
    case tooManyLexicons(count: Int, limit: Int)
}

extension PronunciationError: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .unreadableLexicon(path, reason):
            "The pronunciation lexicon '\(path)' cannot be used: \(reason). Give a PLS 1.0 file (<lexicon alphabet=\"ipa\" …>) and try again."
        case let .tooManyLexicons(count, limit):
            "\(count) pronunciation lexicons were given; at most \(limit) can be in force at once. Merge some of them."
        }
    }
}
