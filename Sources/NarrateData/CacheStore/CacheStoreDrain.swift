import Synchronization

/// The cache store tiers this process opened, so that whatever ends the process (the CLI's
/// `main`, the service's shutdown) lets their uploads finish within their drain deadline.
public enum CacheStoreDrain {
    private struct Weak: @unchecked Sendable {
        weak var tier: TieredAudioCache?
    }

    private static let tiers = Mutex<[Weak]>([])

    static func register(_ tier: TieredAudioCache) {
        tiers.withLock { tiers in
            tiers.removeAll { $0.tier == nil }
            tiers.append(Weak(tier: tier))
        }
    }

    /// Drains every open tier's uploads (each within its deadline, all at once).
    public static func drainAll() async {
        let open = tiers.withLock { $0.compactMap(\.tier) }
        await withTaskGroup(of: Void.self) { group in
            for tier in open {
                group.addTask { _ = await tier.drain() }
            }
        }
    }
}
