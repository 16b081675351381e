import Foundation
import Glibc
import Logging
import NarrateDomain
import Synchronization

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
    /// Workers started by `prestart()` and not yet taken.
    private let spares = SpareWorkers()

    public init(executable: String, arguments: [String], environment: [String: String], count: Int, logger: Logger) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.count = max(1, count)
        self.logger = logger
    }

    /// Starts the workers ahead of need, so that their start-up (runtime, eSpeak's data, the
    /// cache) overlaps the caller's own preparation. `synthesize` uses them first; the ones it
    /// does not need are ended by `dismissSpares()`. A worker that cannot start is left to
    /// `synthesize`, which reports it.
    public func prestart() {
        while spares.count < count {
            guard let worker = try? WorkerProcess(executable: executable, arguments: arguments, environment: environment) else { return }
            spares.add(worker)
        }
    }

    /// Ends the workers `prestart()` started that `synthesize` did not take, and waits for them
    /// to exit (they do at the end of their input), so none is left behind.
    public func dismissSpares() async {
        for worker in spares.takeAll() {
            await worker.finish()
        }
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

    /// Requests each worker has in hand: while it stores one chunk in the cache and its answer
    /// travels back, it already synthesizes the next, and one more waits, so eSpeak never idles.
    static let depth = 3

    private func runWorker(
        queue: WorkQueue,
        chunks: [ExportChunk],
        voice: VoiceProfile,
        onChunk: @escaping @Sendable (Int, Result<Double, ExportError>) async -> Void
    ) async throws(ExportError) {
        var worker: WorkerProcess? = nil
        var outstanding: [Int] = []
        var holdsSuspect = false
        while true {
            // A chunk suspected of crashing a worker is tried alone, so a crash names it for sure.
            while outstanding.count < Self.depth, !holdsSuspect, !Task.isCancelled,
                  let (index, suspect) = await queue.next(busy: !outstanding.isEmpty) {
                holdsSuspect = suspect
                let current: WorkerProcess
                if let worker {
                    current = worker
                } else if let spare = spares.take() {
                    current = spare
                } else {
                    current = try WorkerProcess(executable: executable, arguments: arguments, environment: environment)
                }
                worker = current
                outstanding.append(index)
                // A worker that cannot take a request has died: `receive` below finds out.
                guard current.post(WorkerRequest(id: index, text: chunks[index].text, voice: voice)) else { break }
            }
            guard let current = worker, !outstanding.isEmpty else { break }
            defer { if outstanding.isEmpty { holdsSuspect = false } }
            guard let response = await current.receive() else {
                // The worker died. With one chunk in hand, that chunk did it: report it. With
                // several, any of them may have: each is tried again alone in a fresh worker.
                let reason = await current.exitDescription()
                worker = nil
                if outstanding.count == 1, let blamed = outstanding.first {
                    logger.error("worker failed on page \(chunks[blamed].pageLabel): \(reason); starting another")
                    await onChunk(blamed, .failure(.workerFailed(pageLabel: chunks[blamed].pageLabel, reason: reason)))
                } else {
                    logger.warning("a worker failed (\(reason)); retrying its \(outstanding.count) chunks one at a time")
                    await queue.putBack(outstanding)
                }
                outstanding = []
                continue
            }
            guard let position = outstanding.firstIndex(of: response.id) else { continue }
            outstanding.remove(at: position)
            let chunk = chunks[response.id]
            if let error = response.error {
                await onChunk(response.id, .failure(.workerFailed(pageLabel: chunk.pageLabel, reason: error)))
            } else {
                await onChunk(response.id, .success(response.seconds ?? 0))
            }
        }
        if let worker {
            await worker.finish()
        }
    }
}

/// Hands out chunk indices in reading order; chunks given back after a crash come first, and
/// each of those only to a worker with nothing else in hand.
private actor WorkQueue {
    private var nextIndex = 0
    private var suspects: [Int] = []
    private let count: Int

    init(count: Int) { self.count = count }

    /// The next chunk and whether it is a suspect; `nil` when none is left, or when the caller
    /// has work in hand (`busy`) and the next chunk must be tried alone.
    func next(busy: Bool) -> (Int, Bool)? {
        if !suspects.isEmpty {
            return busy ? nil : (suspects.removeFirst(), true)
        }
        guard nextIndex < count else { return nil }
        defer { nextIndex += 1 }
        return (nextIndex, false)
    }

    func putBack(_ indices: [Int]) {
        suspects.insert(contentsOf: indices, at: 0)
    }
}

/// Worker processes started ahead of need, handed out once each.
private final class SpareWorkers: Sendable {
    private let workers = Mutex<[WorkerProcess]>([])

    var count: Int { workers.withLock { $0.count } }

    func add(_ worker: WorkerProcess) {
        workers.withLock { $0.append(worker) }
    }

    func take() -> WorkerProcess? {
        workers.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }

    func takeAll() -> [WorkerProcess] {
        workers.withLock { workers in
            defer { workers = [] }
            return workers
        }
    }
}
