import Glibc
import NarrateDomain

/// One running `ffmpeg` child: spawned in `init`, killed and reaped in `deinit` unless it was
/// waited for. Its standard error goes to a temporary file (a pipe that nobody drains could
/// fill up and stall ffmpeg, and with it the writer); the last line of that file becomes the
/// reason of the `ExportError.encoderFailed` when ffmpeg fails.
///
/// Standard input, when fed, is one end of a Unix socket pair rather than a pipe: `send` with
/// `MSG_NOSIGNAL` reports a dead ffmpeg as `EPIPE` instead of raising SIGPIPE, which would kill
/// the whole process.
final class FFmpegProcess {
    /// The format named in errors (`M4B`).
    let format: String
    private let pid: pid_t
    private let log: AtomicFile
    /// Our end of standard input, or -1 once closed (or when ffmpeg reads no input).
    private var input: Int32
    private var isReaped = false

    /// Starts `executable` with `arguments` (without argv[0]).
    /// - Parameters:
    ///   - logBeside: the destination whose folder holds the temporary stderr file.
    ///   - feedsStandardInput: whether `write(_:)` will stream data to ffmpeg's stdin; if not,
    ///     stdin is `/dev/null`.
    /// - Throws: `ExportError.ffmpegMissing` when the program cannot be executed,
    ///   `.outputFailed` when the log file cannot be created, `.encoderFailed` otherwise.
    init(executable: String, arguments: [String], format: String, logBeside destination: String, feedsStandardInput: Bool) throws(ExportError) {
        self.format = format
        let log = try ExportError.writing(destination) { () throws(SystemCallError) in try AtomicFile(destination: destination, suffix: ".ffmpeg.log") }

        var sockets: [Int32] = [-1, -1]
        if feedsStandardInput {
            let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            guard socketpair(AF_UNIX, type, 0, &sockets) == 0 else {
                throw .encoderFailed(format: format, reason: "could not make a channel to ffmpeg: \(SystemCallError.message(errno))")
            }
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if feedsStandardInput {
            posix_spawn_file_actions_adddup2(&actions, sockets[1], STDIN_FILENO)
        } else {
            posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, log.fileDescriptor, STDERR_FILENO)

        var pid: pid_t = 0
        let status = Self.spawn(&pid, executable, [executable] + arguments, actions: &actions)
        if feedsStandardInput { close(sockets[1]) }
        guard status == 0 else {
            if feedsStandardInput { close(sockets[0]) }
            if status == ENOENT || status == EACCES || status == ENOEXEC { throw .ffmpegMissing }
            throw .encoderFailed(format: format, reason: "could not start ffmpeg: \(SystemCallError.message(status))")
        }
        self.pid = pid
        self.log = log
        self.input = sockets[0]
    }

    deinit {
        kill()
    }

    /// `posix_spawn` with default signal handling in the child (no blocked signals, SIGPIPE
    /// not ignored), whatever this process blocks or ignores.
    /// - Parameter environment: the child's `NAME=value` strings ending in nil, which the caller
    ///   frees; nil: this process's without its credentials.
    static func spawn(
        _ pid: inout pid_t, _ executable: String, _ arguments: [String], actions: inout posix_spawn_file_actions_t,
        environment given: [UnsafeMutablePointer<CChar>?]? = nil
    ) -> Int32 {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        // ffmpeg parses what it is given: it gets no credential.
        let environment = given == nil ? ChildEnvironment.cStrings() : []
        defer { for variable in environment { free(variable) } }
        return posix_spawn(&pid, executable, &actions, &attributes, argv, given ?? environment)
    }

    /// Sends all of `bytes` to ffmpeg's standard input.
    /// - Throws: `ExportError.encoderFailed` with ffmpeg's last error line when it has stopped.
    func write(_ bytes: UnsafeRawBufferPointer) throws(ExportError) {
        guard var cursor = bytes.baseAddress else { return }
        guard input >= 0 else { throw .encoderFailed(format: format, reason: "ffmpeg's input is already closed") }
        var remaining = bytes.count
        while remaining > 0 {
            let sent = send(input, cursor, remaining, Int32(MSG_NOSIGNAL))
            if sent < 0 {
                if errno == EINTR { continue }
                let reason = SystemCallError.message(errno)
                // Most likely ffmpeg exited; its own message says why.
                try waitForSuccess()
                throw .encoderFailed(format: format, reason: "ffmpeg stopped reading its input: \(reason)")
            }
            remaining -= sent
            cursor += sent
        }
    }

    /// Closes standard input (end of data) and waits for ffmpeg to exit.
    /// - Throws: `ExportError.encoderFailed` unless ffmpeg exits with status 0.
    func waitForSuccess() throws(ExportError) {
        closeInput()
        guard !isReaped else { throw .encoderFailed(format: format, reason: "ffmpeg was already stopped") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else {
                isReaped = true
                throw .encoderFailed(format: format, reason: "could not wait for ffmpeg: \(SystemCallError.message(errno))")
            }
        }
        isReaped = true
        let signal = status & 0x7F
        let exitCode = (status >> 8) & 0xFF
        guard signal != 0 || exitCode != 0 else { return }
        let outcome = signal == 0 ? "ffmpeg exited with status \(exitCode)" : "ffmpeg was stopped by signal \(signal)"
        if let line = lastLogLine() {
            throw .encoderFailed(format: format, reason: "\(outcome): \(line)")
        }
        throw .encoderFailed(format: format, reason: outcome)
    }

    /// Stops ffmpeg at once (SIGKILL) and reaps it, if it is still running.
    func kill() {
        closeInput()
        guard !isReaped else { return }
        isReaped = true
        _ = Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    }

    // MARK: - Private

    private func closeInput() {
        guard input >= 0 else { return }
        close(input)
        input = -1
    }

    /// The last non-empty line ffmpeg wrote to standard error.
    private func lastLogLine() -> String? {
        let text = String(decoding: log.contents(), as: UTF8.self)
        let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" })
        return lines.last { !$0.allSatisfy(\.isWhitespace) }.map { String($0.trimmingPrefix(while: \.isWhitespace)) }
    }

    /// Finds an executable: `program` itself when it contains a slash, else the first match on
    /// `PATH`. `nil` when there is none.
    static func locate(_ program: String) -> String? {
        ExecutableSearch.locate(program)
    }
}
