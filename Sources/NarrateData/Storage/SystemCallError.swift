import Glibc

/// A failed system call: what was attempted, on which path, and `errno`. The one way Storage
/// reports errno; callers map it to their feature's error.
struct SystemCallError: Error, Sendable, Equatable {
    var operation: String
    var path: String
    var code: Int32

    /// `strerror` text prefixed with the operation, e.g. `write: No space left on device`.
    var reason: String { "\(operation): \(message)" }

    /// `strerror` text alone, e.g. `No space left on device`.
    var message: String { Self.message(code) }

    /// The failure the last system call left in `errno`.
    static func last(_ operation: String, _ path: String) -> SystemCallError {
        SystemCallError(operation: operation, path: path, code: errno)
    }

    /// The text of an errno value, for messages.
    static func message(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
