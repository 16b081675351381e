import Logging
import Synchronization

/// A log handler that keeps every message it is given (as `StreamLogHandler` would write it,
/// before any escaping of its own), at `.info` and above like the service's default.
final class LogRecorder: Sendable {
    private let lines = Mutex<[String]>([])

    /// Everything logged so far, one message a line.
    var messages: [String] { lines.withLock { $0 } }

    /// A logger writing here at the service's default level.
    var logger: Logger {
        var logger = Logger(label: "test") { _ in Handler(recorder: self) }
        logger.logLevel = .info
        return logger
    }

    fileprivate func record(_ line: String) {
        lines.withLock { $0.append(line) }
    }

    private struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            recorder.record("\(event.level) \(event.message)")
        }
    }
}
