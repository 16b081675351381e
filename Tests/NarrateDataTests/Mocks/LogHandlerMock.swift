import Logging
import Synchronization

/// A log handler that records every message, for tests that check what was logged.
struct LogHandlerMock: LogHandler {
    /// The messages logged through any copy of the handler.
    final class Recorder: Sendable {
        private let storage = Mutex<[String]>([])
        var messages: [String] { storage.withLock { $0 } }
        func append(_ message: String) { storage.withLock { $0.append(message) } }
    }

    let recorder: Recorder
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    var logLevel: Logger.Level = .trace

    init(recorder: Recorder) {
        self.recorder = recorder
    }

    /// A logger that records into a fresh recorder.
    static func logger() -> (Logger, Recorder) {
        let recorder = Recorder()
        return (Logger(label: "test", factory: { _ in LogHandlerMock(recorder: recorder) }), recorder)
    }

    func log(event: LogEvent) {
        recorder.append("\(event.level): \(event.message) \(event.metadata ?? [:])")
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
}
