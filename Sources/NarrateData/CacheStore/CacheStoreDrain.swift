import Synchronization

/// The cache store tiers this process opened, kept until the process ends (or their owner
/// finishes them), so that whatever ends the process (the CLI's `main`, the service's
/// shutdown) lets their uploads finish within their drain deadline, even after the command
/// that opened them let go of them.
public enum CacheStoreDrain {
    private static let tiers = Mutex<[ObjectIdentifier: TieredAudioCache]>([:])

    static func register(_ tier: TieredAudioCache) {
        tiers.withLock { $0[ObjectIdentifier(tier)] = tier }
    }

    /// Drains `tier` and lets it go (its owner is done with it).
    static func finish(_ tier: TieredAudioCache) async {
        await tier.drain()
        _ = tiers.withLock { $0.removeValue(forKey: ObjectIdentifier(tier)) }
    }

    /// Lets `tier` go without waiting for its uploads (its owner was cancelled): the uploads
    /// under way end by themselves, within their request deadline.
    static func forget(_ tier: TieredAudioCache) {
        _ = tiers.withLock { $0.removeValue(forKey: ObjectIdentifier(tier)) }
    }

    /// How many tiers are open (tests: a finished or abandoned tier is let go).
    public static var openCount: Int {
        tiers.withLock { $0.count }
    }

    /// Drains every open tier's uploads (each within its deadline, all at once).
    public static func drainAll() async {
        let open = tiers.withLock { Array($0.values) }
        await withTaskGroup(of: Void.self) { group in
            for tier in open {
                group.addTask { await finish(tier) }
            }
        }
    }
}
