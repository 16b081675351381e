import NarrateDomain
import Synchronization

/// The requests one remote synthesizer has in flight to its speech API. At most `limit` at
/// once; a 429 halves the limit and pauses every request until the server's `Retry-After` (or
/// the backoff) has passed, and each success raises the limit by one again, up to the number
/// asked for. A `NarrateEnvironment` makes one synthesizer per API, so its whole speech path
/// and export share one limiter (nothing process-wide).
final class RemoteRequestLimiter: Sendable {
    private struct State {
        var maximum: Int
        var limit: Int
        var inFlight = 0
        var pausedUntil: ContinuousClock.Instant?
        var waiters: [(id: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var nextWaiter = 0
    }

    private let state: Mutex<State>
    private let clock = ContinuousClock()

    init(maximum: Int) {
        state = Mutex(State(maximum: max(1, maximum), limit: max(1, maximum)))
    }

    /// The requests allowed at once now.
    var currentLimit: Int { state.withLock { $0.limit } }

    /// Waits for a pause to pass and a free place, then takes it.
    /// - Throws: `CancellationError` when the task is cancelled while waiting.
    func acquire() async throws {
        while true {
            try Task.checkCancellation()
            if let pause = state.withLock({ $0.pausedUntil }), pause > clock.now {
                try await Task.sleep(until: pause, clock: clock)
                continue
            }
            let taken = state.withLock { state -> Bool in
                guard state.inFlight < state.limit else { return false }
                state.inFlight += 1
                return true
            }
            if taken { return }
            let id = state.withLock { state -> Int in
                state.nextWaiter += 1
                return state.nextWaiter
            }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let resumeNow = state.withLock { state -> Bool in
                        if state.inFlight < state.limit { return true }
                        state.waiters.append((id, continuation))
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
            } onCancel: {
                let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                    guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                    return state.waiters.remove(at: index).continuation
                }
                waiter?.resume()
            }
        }
    }

    /// Gives the place back. `succeeded` raises the limit by one (up to the maximum).
    func release(succeeded: Bool) {
        let woken = state.withLock { state in
            state.inFlight -= 1
            if succeeded { state.limit = min(state.maximum, state.limit + 1) }
            return Self.wakeable(&state)
        }
        woken.forEach { $0.resume() }
    }

    /// A 429: every request waits `delay`, and half as many go at once.
    func slowDown(for delay: Duration) {
        state.withLock { state in
            let until = clock.now + delay
            if state.pausedUntil.map({ $0 < until }) ?? true { state.pausedUntil = until }
            state.limit = max(1, state.limit / 2)
        }
    }

    /// The waiters there is room for now, removed from the queue (each rechecks on waking).
    private static func wakeable(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        let room = max(0, state.limit - state.inFlight)
        let count = min(room, state.waiters.count)
        let woken = state.waiters.prefix(count).map(\.continuation)
        state.waiters.removeFirst(count)
        return woken
    }
}
