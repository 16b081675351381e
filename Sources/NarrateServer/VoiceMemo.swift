import NarrateKit
import Synchronization

/// Voice names and the profiles they resolved to, each remembered for `ttl`: a preset file
/// edited or added is seen within it.
final class VoiceMemo: Sendable {
    private let ttl: Duration
    private let now: @Sendable () -> ContinuousClock.Instant
    private let entries = Mutex<[String: (profile: VoiceProfile, at: ContinuousClock.Instant)]>([:])

    /// - Parameter now: the clock the time to live is measured on (a test moves it by hand).
    init(ttl: Duration = .seconds(5), now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.ttl = ttl
        self.now = now
    }

    func profile(for name: String) -> VoiceProfile? {
        let now = now()
        return entries.withLock { entries in
            guard let entry = entries[name], now - entry.at < ttl else { return nil }
            return entry.profile
        }
    }

    func remember(_ profile: VoiceProfile, for name: String) {
        let now = now()
        entries.withLock { entries in
            if entries.count > 1_000 { entries.removeAll() }
            entries[name] = (profile, now)
        }
    }
}
