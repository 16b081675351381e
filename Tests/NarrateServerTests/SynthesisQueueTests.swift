import Testing
@testable import NarrateServer

@Suite("SynthesisQueue")
struct SynthesisQueueTests {
    @Test("Given free slots, when requests arrive, then each gets one at once")
    func freeSlots() async throws {
        let queue = SynthesisQueue(slots: 2, limit: 0)
        try await queue.acquire()
        try await queue.acquire()
        #expect(await queue.active == 2)
    }

    @Test("Given full slots and a full waiting line, when one more arrives, then it is refused at once")
    func refusesWhenFull() async throws {
        let queue = SynthesisQueue(slots: 1, limit: 1)
        try await queue.acquire()
        let waiter = Task { try await queue.acquire() }
        while await queue.depth < 1 { await Task.yield() }
        await #expect(throws: SynthesisQueue.Refusal.self) { try await queue.acquire() }
        await queue.release()
        try await waiter.value
        #expect(await queue.depth == 0)
        #expect(await queue.active == 1)
    }

    @Test("Given a waiter, when its task is cancelled, then it leaves the line and the slot goes to the next")
    func cancelledWaiterLeaves() async throws {
        let queue = SynthesisQueue(slots: 1, limit: 4)
        try await queue.acquire()
        let first = Task { try await queue.acquire() }
        while await queue.depth < 1 { await Task.yield() }
        let second = Task { try await queue.acquire() }
        while await queue.depth < 2 { await Task.yield() }
        first.cancel()
        await #expect(throws: CancellationError.self) { try await first.value }
        #expect(await queue.depth == 1)
        await queue.release()
        try await second.value
        #expect(await queue.depth == 0)
    }

    @Test("Given a background job waiting, when a request arrives too, then the request gets the next slot and the job the one after")
    func backgroundWaitsForRequests() async throws {
        // Given: the one slot taken, an export waiting for it
        let queue = SynthesisQueue(slots: 1, limit: 4)
        try await queue.acquire()
        let job = Task { try await queue.acquireInBackground() }
        while await queue.backgroundDepth < 1 { await Task.yield() }
        let request = Task { try await queue.acquire() }
        while await queue.depth < 1 { await Task.yield() }

        // When: the slot is given back
        await queue.release()

        // Then: the request has it, the job still waits; once given back again, the job has it
        try await request.value
        #expect(await queue.backgroundDepth == 1)
        await queue.release()
        try await job.value
        #expect(await queue.active == 1)
        #expect(await queue.backgroundDepth == 0)
    }

    @Test("Given a free slot but requests waiting, when a background job asks, then it waits; cancelled, it leaves")
    func backgroundYieldsAndCancels() async throws {
        let queue = SynthesisQueue(slots: 1, limit: 4)
        try await queue.acquire()
        let job = Task { try await queue.acquireInBackground() }
        while await queue.backgroundDepth < 1 { await Task.yield() }
        job.cancel()
        await #expect(throws: CancellationError.self) { try await job.value }
        #expect(await queue.backgroundDepth == 0)
        await queue.release()
        #expect(await queue.active == 0)
    }
}
