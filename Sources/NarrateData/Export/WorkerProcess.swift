import Dispatch
import Foundation
import Glibc
import NarrateDomain

/// One `narrate worker` child process, spoken to one request at a time over its stdin and
/// stdout, one JSON object a line.
final class WorkerProcess: @unchecked Sendable {
    // Touched only by the one task that owns this worker.
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffer: [UInt8] = []
    private static let readQueue = DispatchQueue(label: "narrate.worker-read", attributes: .concurrent)

    init(executable: String, arguments: [String], environment: [String: String]) throws(ExportError) {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        do {
            try process.run()
        } catch {
            throw .encoderFailed(format: "worker", reason: "could not start \(executable): \(error.localizedDescription)")
        }
    }

    deinit {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
    }

    /// Sends `request` and waits for the answer; `nil` when the worker died instead.
    func send(_ request: WorkerRequest) async -> WorkerResponse? {
        guard post(request) else { return nil }
        return await receive()
    }

    /// The next answer, to whichever request it belongs; `nil` when the worker died.
    func receive() async -> WorkerResponse? {
        guard let answer = await readLine() else { return nil }
        return try? JSONDecoder().decode(WorkerResponse.self, from: Data(answer))
    }

    /// Sends `request` without waiting; false when the worker cannot take it (it died).
    func post(_ request: WorkerRequest) -> Bool {
        guard var line = try? JSONEncoder().encode(request) else { return false }
        line.append(0x0A)
        let written = line.withUnsafeBytes { bytes -> Bool in
            var offset = 0
            while offset < bytes.count {
                let count = write(input.fileHandleForWriting.fileDescriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += count
            }
            return true
        }
        return written
    }

    /// Closes the worker's input (it finishes and exits) and waits for it.
    func finish() async {
        try? input.fileHandleForWriting.close()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Self.readQueue.async {
                self.process.waitUntilExit()
                continuation.resume()
            }
        }
    }

    /// How the worker ended, for reports: "exited with status 1", "was killed by signal 6".
    func exitDescription() async -> String {
        await finish()
        switch process.terminationReason {
        case .uncaughtSignal: return "the synthesizer crashed (signal \(process.terminationStatus))"
        default: return "the worker exited with status \(process.terminationStatus)"
        }
    }

    /// The next line of output, read on a thread of its own (the read blocks).
    private func readLine() async -> [UInt8]? {
        if let line = takeLine() { return line }
        let fd = output.fileHandleForReading.fileDescriptor
        return await withCheckedContinuation { (continuation: CheckedContinuation<[UInt8]?, Never>) in
            Self.readQueue.async {
                var chunk = [UInt8](repeating: 0, count: 64 * 1024)
                while true {
                    let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                    if count < 0, errno == EINTR { continue }
                    guard count > 0 else {
                        continuation.resume(returning: nil)
                        return
                    }
                    self.buffer.append(contentsOf: chunk[0..<count])
                    if let line = self.takeLine() {
                        continuation.resume(returning: line)
                        return
                    }
                }
            }
        }
    }

    private func takeLine() -> [UInt8]? {
        guard let newline = buffer.firstIndex(of: 0x0A) else { return nil }
        let line = Array(buffer[..<newline])
        buffer.removeSubrange(...newline)
        return line
    }
}
