import Foundation
import Glibc
import NarrateDomain

/// One run of `narrate-pdf` over one document: the PDF on its standard input, a user password on
/// descriptor 3 (never in its arguments or environment), its records read from standard output
/// and the tail of its standard error kept for the reason of a failure. It starts with an empty
/// environment, bounds its own memory and CPU time, and is killed at `limits.deadline`.
struct PDFReaderProcess {
    /// How the child ended.
    enum Ending: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)
        /// Killed here, at the deadline.
        case timedOut
    }

    struct Outcome: Sendable {
        var output: Data
        var errorTail: String
        var ending: Ending
        /// Whether the output passed its bound and was cut.
        var outputCut: Bool
    }

    let executable: String
    let limits: PDFReaderLimits

    /// Runs the reader over `data`.
    /// - Throws: `BookError.readerUnavailable` when it cannot be started.
    func run(_ data: Data, password: String?) throws(BookError) -> Outcome {
        var input: [Int32] = [-1, -1], output: [Int32] = [-1, -1], errors: [Int32] = [-1, -1], secret: [Int32] = [-1, -1]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        // Socket pairs throughout (close-on-exec from the start, and a dead reader is EPIPE, not SIGPIPE).
        guard socketpair(AF_UNIX, type, 0, &input) == 0, socketpair(AF_UNIX, type, 0, &output) == 0,
              socketpair(AF_UNIX, type, 0, &errors) == 0, password == nil || socketpair(AF_UNIX, type, 0, &secret) == 0
        else {
            for fd in input + output + errors + secret where fd >= 0 { close(fd) }
            throw .readerUnavailable(format: .pdf, reason: "no channel to narrate-pdf could be made (\(SystemCallError.message(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[1], STDIN_FILENO)
        posix_spawn_file_actions_adddup2(&actions, output[1], STDOUT_FILENO)
        posix_spawn_file_actions_adddup2(&actions, errors[1], STDERR_FILENO)
        var arguments = [
            executable, "--memory-mib", String(limits.memoryMiB), "--cpu-seconds", String(limits.cpuSeconds),
            "--max-pages", String(limits.maxPages), "--max-output-mib", String(limits.maxOutputMiB),
        ]
        if password != nil {
            posix_spawn_file_actions_adddup2(&actions, secret[0], 3)
            arguments += ["--password-fd", "3"]
        }
        arguments.append("-")
        var pid: pid_t = 0
        // No environment at all: the reader needs none, and a PDF that took it over finds nothing.
        let environment: [UnsafeMutablePointer<CChar>?] = [nil]
        let status = FFmpegProcess.spawn(&pid, executable, arguments, actions: &actions, environment: environment)
        for fd in [input[1], output[1], errors[1], secret[0]] where fd >= 0 { close(fd) }
        if let password, secret[1] >= 0 {
            // At most 4 KiB, well under a pipe's buffer: the write cannot block.
            let bytes = Array(password.utf8.prefix(4096))
            _ = bytes.withUnsafeBytes { send(secret[1], $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            close(secret[1])
        }
        guard status == 0 else {
            for fd in [input[0], output[0], errors[0]] { close(fd) }
            throw .readerUnavailable(format: .pdf, reason: "\(executable) could not be started (\(SystemCallError.message(status)))")
        }
        return supervise(pid: pid, data: data, input: input[0], output: output[0], errors: errors[0])
    }

    /// Feeds the input and drains both outputs until the child closes them or the deadline passes.
    private func supervise(pid: pid_t, data: Data, input: Int32, output: Int32, errors: Int32) -> Outcome {
        var input = input
        for fd in [input, output, errors] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        let deadline = ContinuousClock.now + limits.deadline
        let maxOutput = (limits.maxOutputMiB << 20) + 4096
        var collected = Data(), errorTail = Data()
        var sent = 0, open: Set<Int32> = [output, errors]
        var timedOut = false, cut = false
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while !open.isEmpty {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { timedOut = true; break }
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if input >= 0 { fds.append(pollfd(fd: input, events: Int16(POLLOUT), revents: 0)) }
            let milliseconds = Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            let ready = poll(&fds, nfds_t(fds.count), milliseconds)
            if ready < 0, errno != EINTR { break }
            for entry in fds where entry.revents != 0 {
                if entry.fd == input {
                    let count = data.count - sent
                    let written = data.withUnsafeBytes { send(input, $0.baseAddress! + sent, min(count, 1 << 20), Int32(MSG_NOSIGNAL)) }
                    if written > 0 { sent += written }
                    if sent >= data.count || (written < 0 && errno != EAGAIN && errno != EINTR) {
                        close(input)
                        input = -1
                    }
                    continue
                }
                let got = read(entry.fd, &buffer, buffer.count)
                if got > 0 {
                    if entry.fd == output {
                        if collected.count < maxOutput { collected.append(contentsOf: buffer[..<got]) } else { cut = true }
                    } else {
                        errorTail.append(contentsOf: buffer[..<got])
                        if errorTail.count > 8192 { errorTail = errorTail.suffix(4096) }
                    }
                } else if got == 0 || (errno != EAGAIN && errno != EINTR) {
                    close(entry.fd)
                    open.remove(entry.fd)
                }
            }
            if cut { break }
        }
        if input >= 0 { close(input) }
        for fd in open { close(fd) }
        if timedOut || cut { _ = kill(pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let signal = status & 0x7F
        let ending: Ending = timedOut ? .timedOut : signal != 0 ? .signalled(signal) : .exited((status >> 8) & 0xFF)
        return Outcome(output: collected, errorTail: String(decoding: errorTail, as: UTF8.self), ending: ending, outputCut: cut)
    }
}
