import Foundation
import Glibc
import Logging
@testable import NarrateData
import NarrateDomain
import Synchronization
import Testing

/// The pool with stand-in workers: a shell that notes its process id and answers each request
/// line with `{"id":N,"seconds":1.5}`, as `narrate worker` does.
@Suite struct WorkerPoolTests {
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory()
    }

    private var startedPath: String { folder.path + "/started" }

    private func makePool(count: Int) -> WorkerPool {
        let script = #"echo $$ >> "$STARTED"; exec sed -u -n 's/.*"id":\([0-9]*\).*/{"id":\1,"seconds":1.5}/p'"#
        return WorkerPool(
            executable: "/bin/sh",
            arguments: ["-c", script],
            environment: ["PATH": "/usr/bin:/bin", "STARTED": startedPath],
            count: count,
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        )
    }

    private func startedProcesses() -> [pid_t] {
        ((try? String(contentsOfFile: startedPath, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { pid_t($0) }
    }

    /// Waits up to 5 s until `count` workers have written their process ids.
    private func waitForStarts(_ count: Int) async throws {
        for _ in 0..<100 where startedProcesses().count < count {
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    private func chunks(_ count: Int) -> [ExportChunk] {
        (0..<count).map { ExportChunk(itemIndex: 0, pageIndex: $0, pageLabel: "\($0 + 1)", text: "Page \($0 + 1).", textOffset: 0) }
    }

    @Test("every chunk is answered, by index, with the seconds its worker reported")
    func answersEveryChunk() async throws {
        // Given
        let sut = makePool(count: 2)
        let answers = Mutex<[Int: Double]>([:])

        // When
        try await sut.synthesize(chunks(7), voice: VoiceProfile(voice: "en-us")) { index, result in
            if case let .success(seconds) = result { answers.withLock { $0[index] = seconds } }
        }

        // Then
        #expect(answers.withLock { $0 } == Dictionary(uniqueKeysWithValues: (0..<7).map { ($0, 1.5) }))
        #expect(startedProcesses().count == 2)
    }

    @Test("prestarted workers are the ones synthesis uses; those it does not need are dismissed and exit")
    func prestartedWorkers() async throws {
        // Given
        let sut = makePool(count: 2)
        sut.prestart()
        try await waitForStarts(2)

        // When: one chunk needs one worker; the other spare is dismissed
        try await sut.synthesize(chunks(1), voice: VoiceProfile(voice: "en-us")) { _, _ in }
        await sut.dismissSpares()

        // Then: no third process was started, and none is left running
        let started = startedProcesses()
        #expect(started.count == 2)
        for pid in started {
            var gone = false
            for _ in 0..<100 {
                if kill(pid, 0) != 0, errno == ESRCH { gone = true; break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(gone, "worker \(pid) still running")
        }
    }

    @Test("dismissing without synthesis ends every prestarted worker; prestarting twice starts no more than the pool's count")
    func dismissWithoutSynthesis() async throws {
        // Given
        let sut = makePool(count: 2)
        sut.prestart()
        sut.prestart()
        try await waitForStarts(2)

        // When
        await sut.dismissSpares()

        // Then
        try await Task.sleep(for: .milliseconds(200))
        let started = startedProcesses()
        #expect(started.count == 2)
        #expect(started.allSatisfy { kill($0, 0) != 0 && errno == ESRCH })
    }
}
