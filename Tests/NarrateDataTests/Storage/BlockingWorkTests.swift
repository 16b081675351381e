import Foundation
import Testing

@testable import NarrateData

@Suite struct BlockingWorkTests {
    struct Refusal: Error, Equatable {}

    final class Counter {
        var value = 0
    }

    @Test("the work gets the value handed to it and its output comes back")
    func output() async {
        // Given
        let counter = Counter()

        // When
        let output = await BlockingWork.run(handing: counter) { counter in
            counter.value += 41
            return counter.value + 1
        }

        // Then
        #expect(output == 42)
        #expect(counter.value == 41)
    }

    @Test("the work's error is thrown to the caller, typed")
    func error() async {
        // When
        let result: Result<Int, Refusal> = await {
            do throws(Refusal) {
                return .success(try await BlockingWork.run(handing: 1) { (_: Int) throws(Refusal) -> Int in throw Refusal() })
            } catch {
                return .failure(error)
            }
        }()

        // Then
        #expect(result == .failure(Refusal()))
    }

    @Test("more blocking works than cores run at once, each on a thread of its own", .timeLimit(.minutes(1)))
    func manyAtOnce() async {
        // Given: works that each wait until all of them have started (on a pool of one thread
        // per core, more than that many could never all start)
        let count = ProcessInfo.processInfo.activeProcessorCount * 2 + 2
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)

        // When
        let finished = await withTaskGroup(of: Int.self) { group in
            for index in 0..<count {
                group.addTask {
                    await BlockingWork.run(handing: index) { index in
                        started.signal()
                        release.wait()
                        return index
                    }
                }
            }
            // Off the pool too: this waits for every work to start, then lets them all go.
            await BlockingWork.run(handing: count) { count in
                for _ in 0..<count { started.wait() }
                for _ in 0..<count { release.signal() }
            }
            return await group.reduce(0) { $0 + $1 }
        }

        // Then
        #expect(finished == (0..<count).reduce(0, +))
    }
}
