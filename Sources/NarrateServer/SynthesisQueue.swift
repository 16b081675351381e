/// Admission to synthesis: `slots` requests at once, up to `limit` more waiting in order; one
/// more is refused at once (429). A waiter whose task is cancelled (its client went away)
/// leaves the queue.
actor SynthesisQueue {
    enum Refusal: Error { case full }

    let slots: Int
    let limit: Int
    private var running = 0
    private var nextID: UInt64 = 0
    private var waiters: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []

    init(slots: Int, limit: Int) {
        self.slots = max(1, slots)
        self.limit = max(0, limit)
    }

    /// Requests waiting now.
    var depth: Int { waiters.count }
    /// Requests holding a slot now.
    var active: Int { running }

    /// Waits for a slot.
    /// - Throws: `Refusal.full` when `limit` requests wait already, `CancellationError` when
    ///   the task is cancelled while waiting.
    func acquire() async throws {
        try Task.checkCancellation()
        if running < slots {
            running += 1
            return
        }
        guard waiters.count < limit else { throw Refusal.full }
        nextID += 1
        let id = nextID
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                } else {
                    waiters.append((id, continuation))
                }
            }
        } onCancel: {
            Task { await self.cancel(id) }
        }
    }

    /// Gives a slot back: the longest waiter gets it.
    func release() {
        if waiters.isEmpty {
            running = max(0, running - 1)
        } else {
            waiters.removeFirst().continuation.resume()
        }
    }

    private func cancel(_ id: UInt64) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume(throwing: CancellationError())
    }
}
