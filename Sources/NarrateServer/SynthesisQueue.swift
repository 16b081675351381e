/// Admission to synthesis: `slots` requests at once, up to `limit` more waiting in order; one
/// more is refused at once (429). A waiter whose task is cancelled (its client went away)
/// leaves the queue.
actor SynthesisQueue {
    enum Refusal: Error { case full }

    nonisolated let slots: Int
    let limit: Int
    private var running = 0
    private var nextID: UInt64 = 0
    private var waiters: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
    private var background: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []

    init(slots: Int, limit: Int) {
        self.slots = max(1, slots)
        self.limit = max(0, limit)
    }

    /// Requests waiting now.
    var depth: Int { waiters.count }
    /// Background jobs waiting now.
    var backgroundDepth: Int { background.count }
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
        try await wait(inBackground: false)
    }

    /// Waits in line (`background`'s or the requests') until `release` resumes it.
    private func wait(inBackground: Bool) async throws {
        nextID += 1
        let id = nextID
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                } else if inBackground {
                    background.append((id, continuation))
                } else {
                    waiters.append((id, continuation))
                }
            }
        } onCancel: {
            Task { await self.cancel(id) }
        }
    }

    /// Waits for a slot no request is waiting for: a background job (a book's export) gets one
    /// only when every request waiting has had its own, and waits without a limit.
    /// - Throws: `CancellationError` when the task is cancelled while waiting.
    func acquireInBackground() async throws {
        try Task.checkCancellation()
        if running < slots, waiters.isEmpty {
            running += 1
            return
        }
        try await wait(inBackground: true)
    }

    /// Gives a slot back: the longest waiting request gets it, else the longest waiting
    /// background job.
    func release() {
        if !waiters.isEmpty {
            waiters.removeFirst().continuation.resume()
        } else if !background.isEmpty {
            background.removeFirst().continuation.resume()
        } else {
            running = max(0, running - 1)
        }
    }

    private func cancel(_ id: UInt64) {
        if let index = background.firstIndex(where: { $0.id == id }) {
            background.remove(at: index).continuation.resume(throwing: CancellationError())
        }
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume(throwing: CancellationError())
    }
}
