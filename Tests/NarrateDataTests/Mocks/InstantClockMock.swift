import Synchronization

/// A monotonic clock a test advances by hand: inject `now` where a type measures durations.
final class InstantClockMock: Sendable {
    private let current = Mutex(ContinuousClock.now)

    /// The closure to inject.
    var now: @Sendable () -> ContinuousClock.Instant { { self.current.withLock { $0 } } }

    func advance(by duration: Duration) {
        current.withLock { $0 += duration }
    }
}
