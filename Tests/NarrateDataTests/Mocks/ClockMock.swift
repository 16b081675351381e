import Foundation
import Synchronization

/// A clock a test sets and advances by hand.
final class ClockMock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        current = Mutex(start)
    }

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 += seconds }
    }

    /// The closure to inject as a clock.
    var clock: @Sendable () -> Date { { self.now } }
}
