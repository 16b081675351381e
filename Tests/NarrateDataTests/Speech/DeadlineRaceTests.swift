import Synchronization
import Testing

@testable import NarrateData

@Suite struct DeadlineRaceTests {
    struct Refusal: Error {}

    @Test("an operation within the deadline gives its value")
    func inTime() async throws {
        // When
        let value = try await DeadlineRace.run(within: .seconds(30)) { 42 }

        // Then
        #expect(value == 42)
    }

    @Test("an operation's error is thrown to the caller")
    func error() async {
        // When / Then
        await #expect(throws: Refusal.self) { _ = try await DeadlineRace.run(within: .seconds(30)) { () async throws -> Int in throw Refusal() } }
    }

    /// An operation's answer, held back until the test gives it.
    final class HeldAnswer: Sendable {
        private let waiting = Mutex<CheckedContinuation<Int, Never>?>(nil)
        private let given = Mutex(false)

        func wait() async -> Int {
            await withCheckedContinuation { continuation in
                let answerNow = given.withLock { $0 }
                if answerNow { continuation.resume(returning: 1) } else { waiting.withLock { $0 = continuation } }
            }
        }

        func give() {
            given.withLock { $0 = true }
            waiting.withLock { $0.take() }?.resume(returning: 1)
        }
    }

    @Test("an operation that ignores its cancellation does not hold the caller past the deadline", .timeLimit(.minutes(1)))
    func deafOperation() async throws {
        // Given: an operation that answers only when the test lets it, whatever happens to its task
        let held = HeldAnswer()
        defer { held.give() }

        // When
        let value = try await DeadlineRace.run(within: .milliseconds(200)) { await held.wait() }

        // Then: nil at the deadline, though the operation cannot answer before the test lets it
        // (a race that waited for it would never end: the time limit fails it)
        #expect(value == nil)
    }

    @Test("a cancelled caller is answered at once with CancellationError")
    func callerCancelled() async {
        // Given
        let race = Task {
            try await DeadlineRace.run(within: .seconds(60)) { try await Task.sleep(for: .seconds(60)); return 1 }
        }

        // When
        race.cancel()

        // Then
        await #expect(throws: CancellationError.self) { _ = try await race.value }
    }
}
