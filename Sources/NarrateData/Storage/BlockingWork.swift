import Foundation

/// Work that blocks (waiting for ffmpeg to end, an encoder's last frames) run on a thread of its
/// own while the caller awaits it. Swift's concurrency has one thread per core: an M4B file's
/// end held one for seconds, and on two cores every other task of the process (a speech
/// request in the service, a progress bar) waited.
enum BlockingWork {
    /// Hands `value` to `body` on a new thread; the caller gives up `value` until it returns.
    static func run<Value, Output: Sendable, Failure: Error>(
        handing value: Value, _ body: @escaping @Sendable (Value) throws(Failure) -> Output
    ) async throws(Failure) -> Output {
        let handed = Handed(value: value)
        let result: Result<Output, Failure> = await withCheckedContinuation { continuation in
            Thread {
                continuation.resume(returning: Result { () throws(Failure) -> Output in try body(handed.value) })
            }.start()
        }
        return try result.get()
    }

    /// A value passed to the work's thread. Not shared: the caller waits while the thread has it.
    private struct Handed<Value>: @unchecked Sendable {
        let value: Value
    }
}
