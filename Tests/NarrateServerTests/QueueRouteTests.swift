import HTTPTypes
import NIOCore
import NIOEmbedded
import NarrateKit
import HummingbirdTesting
import Testing
@testable import NarrateServer

/// The admission queue seen through `POST /v1/audio/speech`: the test holds every synthesis
/// slot itself, so what waits and what is refused does not depend on timing.
@Suite("Queue routes")
struct QueueRouteTests {
    @Test("Given every slot held and no room to wait, when speech is asked for, then 429 rate_limit_error with Retry-After 1; with a slot free it is served")
    func fullQueue() async throws {
        let service = try RouteTestServer { $0.queueLimit = 0 }
        let queue = service.backend.queue
        let slots = queue.slots
        for _ in 0..<slots { try await queue.acquire() }
        try await service.test { client in
            let refused = try await client.speech("Refused at once.")
            #expect(refused.status == .tooManyRequests)
            #expect(refused.headers[.retryAfter] == "1")
            #expect(refused.headers[.contentType] == "application/json")
            #expect(refused.apiError?.type == "rate_limit_error")
            #expect(refused.apiError?.code == "queue_full")
            #expect(refused.apiError?.keys == APIErrorBody.openAIKeys)

            await queue.release()
            let served = try await client.speech("Refused at once.")
            #expect(served.status == .ok)
        }
    }

    @Test("Given every slot held and room for one to wait, when two ask, then one waits and is served when a slot is given back, the other is refused")
    func waitsForASlot() async throws {
        let service = try RouteTestServer { $0.queueLimit = 1 }
        let queue = service.backend.queue
        let slots = queue.slots
        for _ in 0..<slots { try await queue.acquire() }
        try await service.test { client in
            let waiting = Task { try await client.speech("This one waits its turn.") }
            while await queue.depth < 1 { await Task.yield() }
            let refused = try await client.speech("And this one is refused.")
            #expect(refused.status == .tooManyRequests)

            await queue.release()
            let served = try await waiting.value
            #expect(served.status == .ok)
            #expect(WAVHeader(served.bytes) != nil)
            #expect(await queue.depth == 0)
        }
    }

    @Test("Given a request waiting for a slot, when its client goes away, then it leaves the queue with 499 client_closed")
    func clientGoneLeavesQueue() async throws {
        let service = try RouteTestServer { $0.queueLimit = 4 }
        let backend = service.backend
        let queue = backend.queue
        let slots = queue.slots
        for _ in 0..<slots { try await queue.acquire() }
        try await service.test { _ in
            let connection = NIOAsyncTestingChannel()
            let waiting = Task { try await backend.speak(SpeechText("Nobody waits for this."), voice: .narrator, channel: connection) }
            while await queue.depth < 1 { await Task.yield() }

            try await connection.close()

            do {
                _ = try await waiting.value
                Issue.record("the request was served after its client went away")
            } catch let error as APIError {
                #expect(error.status.code == 499)
                #expect(error.code == "client_closed")
            }
            #expect(await queue.depth == 0)
            #expect(await queue.active == slots)
        }
    }
}
