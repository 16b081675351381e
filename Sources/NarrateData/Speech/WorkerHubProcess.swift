import Foundation
import Glibc

/// The hub a worker pool's workers share (`narrate-worker --hub`): it keeps a template per
/// neural voice in use, from which each worker's zygote for that voice is forked, so the pool
/// holds one copy of the loaded model. The pool starts it with its first worker and ends it with
/// its last: it runs until its standard input closes (the pool ends, or this process dies), so a
/// worker that dies costs only its own text.
///
/// Its socket's name is abstract, seen by every process in the network namespace; the hub serves
/// only clients that send the pool's `secret` first (random, made here, given to the pool's own
/// workers and no one else). A worker, in turn, speaks only to the process the pool started
/// (`NARRATE_WORKER_HUB_PID`, checked against the socket's peer before it sends anything).
final class WorkerHubProcess: Sendable {
    /// The variables a worker of this pool needs to reach the hub.
    let workerEnvironment: [String: String]
    private let process: Process
    private let input: FileHandle

    /// How long the hub has to say that it listens, and what it says.
    static let startLimit: Duration = .seconds(5)
    static let listening = Array("narrate-worker hub listening\n".utf8)

    /// Starts the hub of a pool; nil when it cannot start or does not say in time that it listens
    /// (the workers then load their voices themselves, as without a hub).
    init?(executable: String, environment: [String: String]) {
        var generator = SystemRandomNumberGenerator()
        let secret = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
        let name = "\(getpid())/\(UUID().uuidString)"
        let hubEnvironment = ["NARRATE_WORKER_HUB": name, "NARRATE_WORKER_HUB_SECRET": secret]
        let process = Process()
        let input = Pipe()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--hub"]
        process.environment = environment.merging(hubEnvironment) { _, hub in hub }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        do {
            try process.run()
        } catch {
            return nil
        }
        try? output.fileHandleForWriting.close()
        let listening = Self.saysItListens(output.fileHandleForReading.fileDescriptor, within: Self.startLimit)
        try? output.fileHandleForReading.close()
        self.process = process
        self.input = input.fileHandleForWriting
        // The workers check that the socket they reach is this process's: a name this hub bound
        // is free again once it dies, and whoever binds it next must not get a worker's secret.
        workerEnvironment = hubEnvironment.merging(["NARRATE_WORKER_HUB_PID": String(process.processIdentifier)]) { _, pid in pid }
        guard listening else {
            stop()
            return nil
        }
    }

    deinit {
        try? input.close()
    }

    /// Whether the hub still runs.
    var isRunning: Bool { process.isRunning }

    /// Ends the hub (its templates and their zygotes end with it) and waits, at most a few
    /// seconds, for it to exit.
    func stop() {
        try? input.close()
        let until = ContinuousClock.now + .seconds(5)
        while process.isRunning && ContinuousClock.now < until {
            usleep(5_000)
        }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// Whether the hub wrote its line (`listening`) on `fd` within `limit`: a program that is
    /// not a hub (an older worker, a test's stand-in) says something else, or nothing.
    private static func saysItListens(_ fd: Int32, within limit: Duration) -> Bool {
        let until = ContinuousClock.now + limit
        var said: [UInt8] = []
        while said.count < listening.count {
            let left = until - ContinuousClock.now
            guard left > .zero else { return false }
            var watch = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            let ready = poll(&watch, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return false }
            var bytes = [UInt8](repeating: 0, count: listening.count - said.count)
            let count = read(fd, &bytes, bytes.count)
            guard count > 0 else { return false }
            said += bytes[0..<count]
        }
        return said == listening
    }
}
