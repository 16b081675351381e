import Synchronization

/// Runs an operation against a deadline and answers at the deadline even when the operation
/// is slow to notice it was cancelled.
///
/// A task group would wait for a cancelled child to end; a request whose body trickles in, or
/// an HTTP client that sees the cancellation late, would hold the caller long past its bound.
/// Here the operation runs in its own task: at the deadline it is cancelled and left to end by
/// itself, and the caller gets `nil` at once.
enum DeadlineRace {
    static func run<T: Sendable>(
        within timeout: Duration, _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T? {
        let (outcomes, continuation) = AsyncStream<Result<T, any Error>?>.makeStream(bufferingPolicy: .bufferingOldest(1))
        let work = Task {
            do { continuation.yield(.success(try await operation())) } catch { continuation.yield(.failure(error)) }
        }
        let timer = Task {
            try? await Task.sleep(for: timeout)
            continuation.yield(nil)
        }
        let first = await withTaskCancellationHandler {
            var iterator = outcomes.makeAsyncIterator()
            return await iterator.next() ?? nil
        } onCancel: {
            work.cancel()
            continuation.yield(.failure(CancellationError()))
        }
        continuation.finish()
        timer.cancel()
        work.cancel()
        return try first?.get()
    }
}
