import Foundation
import Synchronization

/// The line a run ends with, after any error: with a remote engine, how many characters went to
/// the API and how many came from the cache.
enum RunReport {
    private static let line = Mutex<(@Sendable () -> String)?>(nil)

    static func set(_ make: @escaping @Sendable () -> String) {
        line.withLock { $0 = make }
    }

    /// Prints the line on standard error, once.
    static func print() {
        guard let make = line.withLock({ line in defer { line = nil }; return line }) else { return }
        FileHandle.standardError.write(Data("narrate: remote: \(make())\n".utf8))
    }
}
