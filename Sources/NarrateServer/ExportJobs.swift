import Foundation
import HTTPTypes
import NarrateKit

/// The service's book exports: jobs run one at a time, each once the admission queue gives it a
/// slot no speech request is waiting for (`SynthesisQueue.acquireInBackground`), with an engine
/// worker of its own; speech keeps the other slots. Every job has a folder under `directory`
/// (its `job.json` and the export's files); a job queued or running when the service stopped
/// starts again when it starts, resuming from the cache and the export's manifest.
actor ExportJobs {
    /// Exports the job's book into a folder, reporting chunks done and to do; gives the file
    /// (its path in the job's folder) and its size.
    typealias Run = @Sendable (ExportJob, _ folder: String, _ progress: @escaping @Sendable (Int, Int) -> Void) async throws -> (path: String, bytes: Int64)

    /// Jobs that may wait or run at once; one more is refused.
    static let maxPending = 16

    /// How much the finished jobs kept for download may hold (`ExportJobs+Limits`).
    struct Limits: Sendable {
        /// Their files' bytes in all (`--exports-max-bytes`).
        var maxBytes: Int64 = 4 << 30
        /// How long one is kept after it finished (`--exports-max-age`).
        var maxAge: Duration = .seconds(168 * 3_600)
        /// How many are kept.
        var maxKept = 50
    }

    let directory: String
    let limits: Limits
    private let run: Run
    private let admit: @Sendable () async throws -> Void
    private let release: @Sendable () async -> Void
    /// What a client may read of a failed job's error (`ErrorDisclosure`).
    private let disclose: @Sendable (APIError) -> APIError
    /// The time jobs are dated and aged by.
    let now: @Sendable () -> Date
    var jobs: [String: ExportJob] = [:]
    private var running: (id: String, task: Task<Void, Never>)?
    private var watchers: [String: [UUID: AsyncStream<ExportJob>.Continuation]] = [:]
    /// Downloads in progress, by job: such a job is never removed by the limits.
    var downloads: [String: Int] = [:]

    init(
        directory: String, limits: Limits = Limits(), run: @escaping Run, admit: @escaping @Sendable () async throws -> Void,
        release: @escaping @Sendable () async -> Void, disclose: @escaping @Sendable (APIError) -> APIError = { $0 }, now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.directory = directory
        self.limits = limits
        self.run = run
        self.admit = admit
        self.release = release
        self.disclose = disclose
        self.now = now
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
            guard let data = FileManager.default.contents(atPath: "\(directory)/\(name)/job.json"),
                  var job = try? JSONDecoder.exports.decode(ExportJob.self, from: data), job.id == name
            else { continue }
            if job.state == .running { job.state = .queued }
            jobs[job.id] = job
        }
    }

    /// Starts what was left queued or running by the last run of the service.
    func resume() {
        enforceLimits()
        startNext()
    }

    var all: [ExportJob] {
        jobs.values.sorted { ($0.created, $0.id) > ($1.created, $1.id) }
    }

    func job(_ id: String) -> ExportJob? {
        jobs[id]
    }

    /// The folder of job `id`'s export.
    nonisolated func folder(of id: String) -> String {
        "\(directory)/\(id)"
    }

    /// Queues `job` (state queued) and starts it when its turn comes.
    /// - Throws: `APIError` 429 when `maxPending` jobs wait or run already, 507 when its folder
    ///   cannot be written.
    func submit(_ job: ExportJob) throws -> ExportJob {
        guard jobs.values.filter({ !$0.state.isOver }).count < Self.maxPending else {
            throw APIError(.tooManyRequests, "\(Self.maxPending) exports are waiting already: wait for one to finish, or cancel one.", code: "too_many_exports")
        }
        try save(job)
        jobs[job.id] = job
        enforceLimits()
        startNext()
        return jobs[job.id] ?? job
    }

    /// Cancels job `id` if it is queued or running, and removes it with its files.
    /// - Returns: whether there was such a job.
    func remove(_ id: String) async -> Bool {
        guard var job = jobs[id] else { return false }
        // Over before its task ends, so that the next one started is not this one again.
        let wasOver = job.state.isOver
        job.state = wasOver ? job.state : .cancelled
        jobs[id] = job
        if let running, running.id == id {
            running.task.cancel()
            await running.task.value
        }
        if !wasOver { publish(job) }
        jobs[id] = nil
        try? FileManager.default.removeItem(atPath: folder(of: id))
        return true
    }

    /// The job's states from now on, starting with the current one, until it is over.
    func updates(of id: String) -> AsyncStream<ExportJob>? {
        guard let job = jobs[id] else { return nil }
        let (stream, continuation) = AsyncStream<ExportJob>.makeStream(bufferingPolicy: .bufferingNewest(1))
        continuation.yield(job)
        if job.state.isOver {
            continuation.finish()
            return stream
        }
        let token = UUID()
        watchers[id, default: [:]][token] = continuation
        continuation.onTermination = { _ in Task { await self.unwatch(id, token) } }
        return stream
    }

    /// Waits for the job running now (tests, and the service when it stops).
    func stop() async {
        guard let running else { return }
        running.task.cancel()
        await running.task.value
    }

    private func unwatch(_ id: String, _ token: UUID) {
        watchers[id]?[token] = nil
    }

    private func publish(_ job: ExportJob) {
        for continuation in watchers[job.id]?.values ?? [:].values {
            continuation.yield(job)
            if job.state.isOver { continuation.finish() }
        }
        if job.state.isOver { watchers[job.id] = nil }
    }

    func update(_ id: String, saving: Bool = true, _ change: (inout ExportJob) -> Void) {
        guard var job = jobs[id] else { return }
        change(&job)
        jobs[id] = job
        if saving { try? save(job) }
        publish(job)
    }

    private func save(_ job: ExportJob) throws {
        do {
            try FileManager.default.createDirectory(atPath: folder(of: job.id), withIntermediateDirectories: true)
            try writeFileAtomically(Array(try JSONEncoder.exports.encode(job)), to: "\(folder(of: job.id))/job.json")
        } catch {
            throw APIError(
                HTTPResponseStatusInsufficientStorage.status, "The export could not be kept; the service's log says why.", code: "storage_failed",
                detail: "The export job could not be written in \(directory): \(error)")
        }
    }

    private func startNext() {
        guard running == nil, let next = jobs.values.filter({ $0.state == .queued }).min(by: { ($0.created, $0.id) < ($1.created, $1.id) }) else { return }
        let id = next.id
        let task = Task { await self.execute(id) }
        running = (id, task)
    }

    private func execute(_ id: String) async {
        defer {
            running = nil
            startNext()
        }
        do {
            try await admit()
        } catch {
            return  // cancelled while it waited: `remove` tidies up
        }
        guard let job = jobs[id] else {
            await release()
            return
        }
        update(id) { $0.state = .running; $0.error = nil }
        let outcome: Result<(path: String, bytes: Int64), any Error>
        do {
            outcome = .success(try await run(job, "\(folder(of: id))/files") { done, total in
                Task { await self.update(id, saving: false) { $0.done = max($0.done, done); $0.total = total } }
            })
        } catch {
            outcome = .failure(error)
        }
        await release()
        if Task.isCancelled { return }
        let finished = now()
        switch outcome {
        case let .success(file) where file.bytes > limits.maxBytes:
            try? FileManager.default.removeItem(atPath: "\(folder(of: id))/files")
            update(id) {
                $0.state = .failed
                $0.finished = finished
                $0.error = "The export's file is \(file.bytes) bytes, more than the \(limits.maxBytes) the service keeps for exports (--exports-max-bytes); export fewer chapters, or raise the limit."
            }
        case let .success(file):
            update(id) {
                $0.state = .done
                $0.finished = finished
                $0.done = max($0.done, $0.total)
                $0.file_name = file.path
                $0.bytes = file.bytes
            }
        case let .failure(error):
            // What the client reads passes the rule every answer passes: no server folder.
            let answer = disclose((error as? APIError) ?? APIError(.internalServerError, "\(error)", code: "export_failed"))
            update(id) {
                $0.state = .failed
                $0.finished = finished
                $0.error = answer.message
            }
        }
        enforceLimits()
    }
}

/// 507, which HTTPTypes names no constant for.
enum HTTPResponseStatusInsufficientStorage {
    static let status = HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage")
}

extension JSONEncoder {
    /// Job files and answers: dates as ISO 8601.
    static var exports: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }
}

extension JSONDecoder {
    static var exports: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
