import CNarrateSystem
import Foundation
import Glibc
import NarrateDomain
import Synchronization

/// Up to `count` `narrate-worker` processes, started as requests need them. Each request goes
/// to the worker with the fewest in hand, so `count` syntheses run at once on as many cores.
/// A worker that died is replaced by the next request that needs one.
final class ESpeakWorkerPool: Sendable {
    let count: Int
    private let executable: Result<String, SpeechError>
    private let environment: [String: String]
    private let workers: Mutex<[ESpeakWorkerConnection]>
    /// The hub the workers share (nil: not started yet, or it could not start); whether the
    /// caller allowed one.
    private let hub = Mutex<HubState>(.notStarted)
    private let hubAllowed: Bool
    /// Workers found dead (crashed, killed) and replaced since the pool was made.
    private let replaced = Atomic<Int>(0)

    init(count: Int, executable: Result<String, SpeechError>, environment: [String: String]?) {
        self.count = max(1, count)
        self.executable = executable
        // The pool's workers share one hub (WorkerHubProcess, narrate-worker's hub.c): their
        // zygotes for a neural voice are forked from one process that loaded it, so the model is
        // in memory once. A caller's NARRATE_WORKER_HUB set empty: no hub.
        // Workers parse untrusted text and models: they get no credential, whoever asks (the
        // hub's name and secret are the pool's own, made for them).
        var shared = ChildEnvironment.withoutSecrets(environment ?? ProcessInfo.processInfo.environment)
        hubAllowed = shared["NARRATE_WORKER_HUB"] != ""
        shared["NARRATE_WORKER_HUB"] = nil
        shared["NARRATE_WORKER_HUB_SECRET"] = nil
        self.environment = shared
        workers = Mutex([])
    }

    deinit {
        workers.withLock { workers in
            for worker in workers { worker.finish() }
        }
    }

    /// The worker that should take the next request (the caller then sends it exactly one): an idle one, else a new one while fewer
    /// than `count` run, else the least busy.
    func worker() throws(SpeechError) -> ESpeakWorkerConnection {
        try workers.withLock { workers throws(SpeechError) -> ESpeakWorkerConnection in
            removeDead(&workers)
            let least = workers.min { $0.load < $1.load }
            if let least, least.load == 0 || workers.count >= count {
                least.reserve()
                return least
            }
            // Starting one takes a few milliseconds; the lock keeps two callers from starting
            // more than `count`.
            let started = try ESpeakWorkerConnection(executable: executable.get(), environment: workerEnvironment())
            started.reserve()
            workers.append(started)
            return started
        }
    }

    /// Starts the workers ahead of need (their start-up overlaps the caller's preparation).
    func prestart() throws(SpeechError) {
        try workers.withLock { workers throws(SpeechError) in
            removeDead(&workers)
            while workers.count < count {
                workers.append(try ESpeakWorkerConnection(executable: executable.get(), environment: workerEnvironment()))
            }
        }
    }

    /// Closes every worker's input and waits for them to exit.
    func shutdown() {
        let ended = workers.withLock { workers in
            defer { workers = [] }
            return workers
        }
        for worker in ended {
            worker.finish()
            worker.waitUntilExit()
        }
        hub.withLock { hub in
            if case .running(let current) = hub { current.stop() }
            hub = .notStarted
        }
    }

    /// A new worker's environment: the pool's, and the hub's name and secret (the hub started
    /// first if it is not running).
    private func workerEnvironment() throws(SpeechError) -> [String: String] {
        guard hubAllowed else { return environment }
        let executable = try executable.get()
        let running = hub.withLock { hub -> WorkerHubProcess? in
            switch hub {
            case .running(let current) where current.isRunning: return current
            case .unavailable: return nil  // tried once: no hub is not worth a wait per worker
            default:
                guard let started = WorkerHubProcess(executable: executable, environment: environment) else {
                    hub = .unavailable
                    return nil
                }
                hub = .running(started)
                return started
            }
        }
        guard let running else { return environment }
        return environment.merging(running.workerEnvironment) { _, hub in hub }
    }

    private enum HubState {
        case notStarted
        case running(WorkerHubProcess)
        /// It could not start (or the executable is not one that has a hub).
        case unavailable
    }

    /// How many workers were found dead and replaced.
    var restarts: Int { replaced.load(ordering: .relaxed) }

    private func removeDead(_ workers: inout [ESpeakWorkerConnection]) {
        let before = workers.count
        workers.removeAll { !$0.isAlive }
        if workers.count < before { replaced.add(before - workers.count, ordering: .relaxed) }
    }

    /// The processes running now (for tests and diagnostics).
    var processIDs: [Int32] {
        workers.withLock { $0.filter(\.isAlive).map(\.processID) }
    }
}

/// Where the `narrate-worker` executable is: named by the caller, else `$NARRATE_WORKER`, else
/// beside the running program, else on `PATH`.
public enum ESpeakWorkerLocator {
    public static let executableName = "narrate-worker"

    public static func locate(explicit: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) -> Result<String, SpeechError> {
        if let explicit, !explicit.isEmpty {
            return ExecutableSearch.isExecutable(explicit) ? .success(explicit) : .failure(missing("\(explicit) is not an executable file"))
        }
        if let named = environment["NARRATE_WORKER"], !named.isEmpty {
            return ExecutableSearch.isExecutable(named) ? .success(named) : .failure(missing("NARRATE_WORKER names \(named), which is not an executable file"))
        }
        if let program = ExecutableSearch.runningProgram() {
            let beside = (program as NSString).deletingLastPathComponent + "/" + executableName
            if ExecutableSearch.isExecutable(beside) { return .success(beside) }
        }
        if let found = ExecutableSearch.locate(executableName, searchPath: environment["PATH"] ?? "") { return .success(found) }
        return .failure(missing("\(executableName) is neither beside this program nor on PATH"))
    }

    private static func missing(_ what: String) -> SpeechError {
        .engineUnavailable(reason: "\(what). It is built with narrate (swift build); install it beside the program or on PATH, or set NARRATE_WORKER to its path")
    }
}
