import Dispatch
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

    @Test("an operation that ignores its cancellation does not hold the caller past the deadline")
    func deafOperation() async throws {
        // Given: an operation that answers after 20 s whatever happens to its task.
        let start = ContinuousClock.now

        // When
        let value = try await DeadlineRace.run(within: .milliseconds(200)) {
            await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
                DispatchQueue.global().asyncAfter(deadline: .now() + 20) { continuation.resume(returning: 1) }
            }
        }

        // Then: nil at the deadline, not the operation's 20 s.
        #expect(value == nil)
        #expect(ContinuousClock.now - start < .seconds(15))
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
