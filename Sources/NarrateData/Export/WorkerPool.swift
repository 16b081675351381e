import Foundation
import Glibc
import Logging
import NarrateDomain

/// Synthesis spread over `narrate worker` processes: eSpeak cannot run in two threads of one
/// process, so parallel work means processes. Each worker takes the next chunk, synthesizes
/// it into the shared audio cache and says how long it was. A worker that dies (eSpeak 1.51
/// aborts on some pathological input) is replaced; its chunk is reported as failed with its
/// page, and the rest goes on.
public struct WorkerPool: Sendable {
    /// The `narrate` binary and the arguments that make it a worker.
    public var executable: String
    public var arguments: [String]
    public var environment: [String: String]
    public var count: Int
    public var logger: Logger

    public init(executable: String, arguments: [String], environment: [String: String], count: Int, logger: Logger) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.count = max(1, count)
        self.logger = logger
    }

    /// Synthesizes `chunks` with `voice`, reporting each (by index) as it completes.
    public func synthesize(
        _ chunks: [ExportChunk],
        voice: VoiceProfile,
        onChunk: @escaping @Sendable (Int, Result<Double, ExportError>) async -> Void
    ) async throws(ExportError) {
        guard !chunks.isEmpty else { return }
        // A worker that dies must not take the parent with it through SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let queue = WorkQueue(count: chunks.count)
        let workers = min(count, chunks.count)
        let pool = self
        let failure: ExportError? = await withTaskGroup(of: ExportError?.self) { group in
            for _ in 0..<workers {
                group.addTask {
                    do throws(ExportError) {
                        try await pool.runWorker(queue: queue, chunks: chunks, voice: voice, onChunk: onChunk)
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            var first: ExportError?
            for await result in group where first == nil {
                first = result
            }
            return first
        }
        if let failure { throw failure }
    }

    private func runWorker(
        queue: WorkQueue,
        chunks: [ExportChunk],
        voice: VoiceProfile,
        onChunk: @escaping @Sendable (Int, Result<Double, ExportError>) async -> Void
    ) async throws(ExportError) {
        var worker: WorkerProcess? = nil
        while !Task.isCancelled, let index = await queue.next() {
            let current: WorkerProcess
            if let worker {
                current = worker
            } else {
                current = try WorkerProcess(executable: executable, arguments: arguments, environment: environment)
            }
            worker = current
            let chunk = chunks[index]
            let response = await current.send(WorkerRequest(id: index, text: chunk.text, voice: voice))
            guard let response else {
                let reason = await current.exitDescription()
                logger.error("worker failed on page \(chunk.pageLabel): \(reason); starting another")
                worker = nil
                await onChunk(index, .failure(.workerFailed(pageLabel: chunk.pageLabel, reason: reason)))
                continue
            }
            if let error = response.error {
                await onChunk(index, .failure(.workerFailed(pageLabel: chunk.pageLabel, reason: error)))
            } else {
                await onChunk(index, .success(response.seconds ?? 0))
            }
        }
        if let worker {
            await worker.finish()
        }
        worker = nil
    }
}

/// Hands out chunk indices in reading order.
private actor WorkQueue {
    private var nextIndex = 0
    private let count: Int

    init(count: Int) { self.count = count }

    func next() -> Int? {
        guard nextIndex < count else { return nil }
        defer { nextIndex += 1 }
        return nextIndex
    }
}
