import NarrateDomain
import Synchronization

/// What one run asked of a speech API: the characters sent, those served from the cache instead,
/// the texts eSpeak spoke because the API could not; and the cap on characters (`--max-characters`),
/// which is checked before anything is sent.
public final class RemoteUsage: Sendable {
    /// The numbers so far.
    public struct Counts: Sendable, Equatable {
        public var sentCharacters = 0
        public var cachedCharacters = 0
        public var fallbackTexts = 0
        var fallbackTextSet: Set<String> = []

        public static func == (lhs: Counts, rhs: Counts) -> Bool {
            (lhs.sentCharacters, lhs.cachedCharacters, lhs.fallbackTexts) == (rhs.sentCharacters, rhs.cachedCharacters, rhs.fallbackTexts)
        }
    }

    public let limit: Int?
    private let counts = Mutex(Counts())

    public init(limit: Int?) {
        self.limit = limit
    }

    public var current: Counts { counts.withLock { $0 } }

    /// Books `characters` as sent, unless that would pass the cap.
    /// - Throws: `SpeechError.characterLimitReached`, booking nothing.
    func reserve(_ characters: Int) throws(SpeechError) {
        let refused: (sent: Int, limit: Int)? = counts.withLock { counts in
            if let limit, counts.sentCharacters + characters > limit { return (counts.sentCharacters, limit) }
            counts.sentCharacters += characters
            return nil
        }
        if let refused { throw .characterLimitReached(limit: refused.limit, sent: refused.sent, needed: characters) }
    }

    /// Takes back a reservation whose text was never delivered.
    func refund(_ characters: Int) {
        counts.withLock { $0.sentCharacters -= characters }
    }

    /// A text of `characters` came from the cache.
    public func recordCacheHit(characters: Int) {
        counts.withLock { $0.cachedCharacters += characters }
    }

    /// eSpeak spoke `text`, which the API could not deliver (each text counts once).
    public func recordFallback(text: String) {
        counts.withLock { counts in
            if counts.fallbackTextSet.insert(text).inserted { counts.fallbackTexts += 1 }
        }
    }

    /// "1,234 characters sent to api.openai.com/v1, 5,678 from the cache", for a run's last line.
    public func summary(endpoint: String) -> String {
        let counts = current
        var line = "\(Self.grouped(counts.sentCharacters)) character\(counts.sentCharacters == 1 ? "" : "s") sent to \(endpoint), \(Self.grouped(counts.cachedCharacters)) from the cache"
        if let limit { line += " (cap \(Self.grouped(limit)))" }
        if counts.fallbackTexts > 0 { line += "; \(counts.fallbackTexts) text\(counts.fallbackTexts == 1 ? "" : "s") spoken by eSpeak NG instead" }
        return line + "."
    }

    static func grouped(_ value: Int) -> String {
        let digits = String(abs(value))
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return (value < 0 ? "-" : "") + result
    }
}
