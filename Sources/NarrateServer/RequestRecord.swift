import NarrateKit
import Synchronization

/// What one request did, for its log line: cache hits and misses of its chunks and the bytes
/// sent. The speech path finds it through the task-local `current`.
final class RequestRecord: Sendable {
    @TaskLocal static var current: RequestRecord?

    private struct Counts { var hits = 0, misses = 0, bytes = 0 }
    private let counts = Mutex(Counts())

    func record(_ event: SynthesisEvent) {
        counts.withLock { counts in
            switch event {
            case .cacheHit: counts.hits += 1
            case .cacheMiss: counts.misses += 1
            case .synthesized, .failed, .fellBack: break
            }
        }
    }

    func sent(_ bytes: Int) {
        counts.withLock { $0.bytes += bytes }
    }

    /// `hit`, `miss`, `partial` (some chunks of each) or `-` (no speech).
    var cache: String {
        counts.withLock { counts in
            switch (counts.hits, counts.misses) {
            case (0, 0): "-"
            case (_, 0): "hit"
            case (0, _): "miss"
            default: "partial"
            }
        }
    }

    var bytes: Int { counts.withLock { $0.bytes } }
}
