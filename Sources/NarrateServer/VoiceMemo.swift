import NarrateKit
import Synchronization

/// Voice names and the profiles they resolved to, each remembered for `ttl`: a preset file
/// edited or added is seen within it.
final class VoiceMemo: Sendable {
    private let ttl: Duration
    private let entries = Mutex<[String: (profile: VoiceProfile, at: ContinuousClock.Instant)]>([:])

    init(ttl: Duration = .seconds(5)) {
        self.ttl = ttl
    }

    func profile(for name: String) -> VoiceProfile? {
        entries.withLock { entries in
            guard let entry = entries[name], ContinuousClock.now - entry.at < ttl else { return nil }
            return entry.profile
        }
    }

    func remember(_ profile: VoiceProfile, for name: String) {
        entries.withLock { entries in
            if entries.count > 1_000 { entries.removeAll() }
            entries[name] = (profile, .now)
        }
    }
}
