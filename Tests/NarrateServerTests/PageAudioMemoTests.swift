import NIOCore
import Synchronization
import Testing
@testable import NarrateServer

@Suite("PageAudioMemo")
struct PageAudioMemoTests {
    @Test("Given a resolution, when its time to live has passed, then it is looked up again")
    func resolutionsExpire() {
        let clock = InstantClockMock()
        let memo = PageAudioMemo(ttl: .seconds(2), now: clock.now)
        memo.remember("1/2/alloy/mp3", tag: "\"tag\"", path: "/tmp/x")
        clock.advance(by: .seconds(2) - .milliseconds(1))
        #expect(memo.resolution(for: "1/2/alloy/mp3")?.tag == "\"tag\"")
        clock.advance(by: .milliseconds(1))
        #expect(memo.resolution(for: "1/2/alloy/mp3") == nil)
    }

    @Test("Given an expired resolution, when many ask at once, then one looks it up again and the others get the old one")
    func oneRefreshAtATime() {
        let clock = InstantClockMock()
        let memo = PageAudioMemo(ttl: .seconds(2), now: clock.now)
        memo.remember("k", tag: "old", path: "/p")
        clock.advance(by: .seconds(3))
        #expect(memo.resolution(for: "k") == nil)          // this caller refreshes
        #expect(memo.resolution(for: "k")?.tag == "old")   // the others are served meanwhile
        memo.remember("k", tag: "new", path: "/p")
        memo.endRefresh("k")
        #expect(memo.resolution(for: "k")?.tag == "new")
    }

    @Test("Given a refreshed resolution, when its new time to live passes, then it expires from when it was remembered again")
    func refreshedResolutionExpiresLater() {
        let clock = InstantClockMock()
        let memo = PageAudioMemo(ttl: .seconds(2), now: clock.now)
        memo.remember("k", tag: "old", path: "/p")
        clock.advance(by: .seconds(2))
        #expect(memo.resolution(for: "k") == nil)
        memo.remember("k", tag: "new", path: "/p")
        memo.endRefresh("k")
        clock.advance(by: .seconds(1))
        #expect(memo.resolution(for: "k")?.tag == "new")
        clock.advance(by: .seconds(1))
        #expect(memo.resolution(for: "k") == nil)
    }

    @Test("Given a change through the service, when resolutions are forgotten, then none is found")
    func forget() {
        let memo = PageAudioMemo()
        memo.remember("a", tag: "t", path: "/p")
        memo.forgetResolutions()
        #expect(memo.resolution(for: "a") == nil)
    }

    @Test("Given more bytes than the bound, when kept, then the least recently used go first")
    func leastRecentlyUsedOut() {
        let memo = PageAudioMemo(maxBytes: 400)
        let hundred = ByteBuffer(bytes: [UInt8](repeating: 1, count: 100))
        memo.keep(hundred, for: "a")
        memo.keep(hundred, for: "b")
        memo.keep(hundred, for: "c")
        memo.keep(hundred, for: "d")
        _ = memo.bytes(for: "a")  // a is now the most recent
        memo.keep(hundred, for: "e")
        #expect(memo.bytes(for: "b") == nil)
        #expect(memo.bytes(for: "a") != nil)
        #expect(memo.bytes(for: "e") != nil)
        // One file larger than the bound is not kept at all.
        memo.keep(ByteBuffer(bytes: [UInt8](repeating: 1, count: 401)), for: "big")
        #expect(memo.bytes(for: "big") == nil)
    }

    @Test("Given many requests for a page not yet kept, when they come while it is read, then the file is read once and all get the same bytes")
    func oneReadForConcurrentRequests() async throws {
        // Given a read that goes on until the test lets it finish
        let memo = PageAudioMemo(maxBytes: 1_000)
        let reads = Mutex(0)
        let gate = AsyncStream<Void>.makeStream()
        let page = ByteBuffer(bytes: [UInt8](repeating: 7, count: 300))
        let read: @Sendable () async throws -> ByteBuffer = {
            reads.withLock { $0 += 1 }
            for await _ in gate.stream { break }
            return page
        }

        // When eight requests ask, all while the first one's read is in progress
        let results = try await withThrowingTaskGroup(of: ByteBuffer.self) { group in
            for _ in 0..<8 {
                group.addTask { try await memo.bytes(for: "tag", read: read) }
            }
            var turns = 0
            while memo.waiting(for: "tag") < 8, turns < 1_000_000 {
                await Task.yield()
                turns += 1
            }
            #expect(memo.waiting(for: "tag") == 8)
            gate.continuation.finish()
            var all: [ByteBuffer] = []
            for try await bytes in group { all.append(bytes) }
            return all
        }

        // Then
        #expect(results.count == 8)
        #expect(results.allSatisfy { $0 == page })
        #expect(reads.withLock { $0 } == 1)
        #expect(memo.bytes(for: "tag") == page)
        #expect(memo.waiting(for: "tag") == 0)
    }
}
