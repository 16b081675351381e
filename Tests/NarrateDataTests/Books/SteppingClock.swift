import Foundation
import Synchronization

/// A clock for `BookRepository(clock:)` that starts at a pinned date and moves a minute
/// forward on every reading, so books saved one after another have distinct `dateAdded`.
final class SteppingClock: Sendable {
    private let current: Mutex<Date>

    init(start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        current = Mutex(start)
    }

    func now() -> Date {
        current.withLock { date in
            defer { date += 60 }
            return date
        }
    }
}
