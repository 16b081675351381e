import Foundation
import Glibc
import NarrateDomain
import Synchronization

/// Opus, AAC and FLAC through an `ffmpeg` child: samples go to its standard
/// input (a socket, so a dead ffmpeg is `EPIPE`, not SIGPIPE), and a thread of its own drains
/// its standard output into `output`, so ffmpeg never waits on a full pipe while being fed.
public final class FFmpegStreamEncoder: AudioStreamEncoder {
    public let output: AsyncThrowingStream<[UInt8], any Error>
    private let format: StreamFormat
    private let pid: pid_t
    private let input: Mutex<Int32>
    /// Set (under its lock) before the drain thread reaps ffmpeg: from then on its pid may be
    /// reused, and `cancel` must not signal it.
    private let reaping: ReapGuard

    /// The ffmpeg arguments after the raw input for `format`; `nil` for the formats encoded in
    /// this process (wav, mp3, pcm).
    static func outputArguments(for format: StreamFormat) -> [String]? {
        switch format {
        case .flac: ["-c:a", "flac", "-f", "flac"]
        case .opus: ["-ar", "24000", "-c:a", "libopus", "-b:a", "32k", "-application", "voip", "-f", "ogg"]
        case .aac: ["-c:a", "aac", "-b:a", "64k", "-f", "adts"]
        case .wav, .mp3, .pcm: nil
        }
    }

    /// Starts ffmpeg for `format` with PCM at `sampleRate` coming in.
    /// - Parameter file: where ffmpeg writes instead of `output` (a seekable file gets complete
    ///   headers: FLAC's sample count, for one); `output` then only ends when ffmpeg has.
    /// - Throws: `ExportError.ffmpegMissing` when there is no ffmpeg, `.encoderFailed` otherwise.
    public init(format: StreamFormat, sampleRate: Int, ffmpeg: String = "ffmpeg", file: String? = nil) throws(ExportError) {
        guard let arguments = Self.outputArguments(for: format) else {
            throw .encoderFailed(format: format.rawValue, reason: "\(format.rawValue) is not encoded by ffmpeg")
        }
        guard let executable = ffmpeg.contains("/") ? ffmpeg : ExecutableSearch.locate(ffmpeg) else { throw .ffmpegMissing }
        self.format = format
        var sockets: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &sockets) == 0 else {
            throw .encoderFailed(format: format.rawValue, reason: "could not make a channel to ffmpeg: \(SystemCallError.message(errno))")
        }
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0, fcntl(pipeEnds[0], F_SETFD, FD_CLOEXEC) == 0, fcntl(pipeEnds[1], F_SETFD, FD_CLOEXEC) == 0 else {
            close(sockets[0]); close(sockets[1])
            throw .encoderFailed(format: format.rawValue, reason: "could not make a pipe from ffmpeg: \(SystemCallError.message(errno))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, sockets[1], STDIN_FILENO)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDOUT_FILENO)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        // Bit-exact: no random Ogg serial number, no encoder version in the stream, so the same
        // audio always gives the same bytes (and its ETag stays honest). -nostdin only stops
        // ffmpeg reading keys from the terminal; pipe:0 is still read.
        let all = [executable, "-nostdin", "-hide_banner", "-loglevel", "error", "-f", "s16le", "-ar", "\(sampleRate)", "-ac", "1", "-i", "pipe:0"]
            + arguments + ["-fflags", "+bitexact", "-flags:a", "+bitexact"] + (file.map { ["-y", $0] } ?? ["-flush_packets", "1", "pipe:1"])
        var spawned: pid_t = 0
        let status = FFmpegProcess.spawn(&spawned, executable, all, actions: &actions)
        close(sockets[1])
        close(pipeEnds[1])
        guard status == 0 else {
            close(sockets[0]); close(pipeEnds[0])
            if status == ENOENT || status == EACCES { throw .ffmpegMissing }
            throw .encoderFailed(format: format.rawValue, reason: "could not start ffmpeg: \(SystemCallError.message(status))")
        }
        let pid = spawned
        self.pid = pid
        self.input = Mutex(sockets[0])
        let reaping = ReapGuard()
        self.reaping = reaping
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: [UInt8].self, throwing: (any Error).self, bufferingPolicy: .unbounded)
        output = stream
        let readEnd = pipeEnds[0]
        let name = format.rawValue
        let thread = Thread {
            Self.drain(readEnd, pid: pid, format: name, reaping: reaping, into: continuation)
        }
        thread.name = "narrate-ffmpeg-\(name)"
        thread.start()
    }

    deinit {
        cancel()
    }

    public func feed(_ samples: [Int16]) throws(ExportError) {
        try input.withLock { fd throws(ExportError) in
            guard fd >= 0 else { throw .encoderFailed(format: format.rawValue, reason: "ffmpeg's input is already closed") }
            let failure: Int32? = samples.withUnsafeBytes { bytes in
                guard var cursor = bytes.baseAddress else { return nil }
                var remaining = bytes.count
                while remaining > 0 {
                    let sent = send(fd, cursor, remaining, Int32(MSG_NOSIGNAL))
                    if sent < 0 {
                        if errno == EINTR { continue }
                        return errno
                    }
                    remaining -= sent
                    cursor += sent
                }
                return nil
            }
            if let failure {
                throw .encoderFailed(format: format.rawValue, reason: "ffmpeg stopped reading its input: \(SystemCallError.message(failure))")
            }
        }
    }

    public func finish() throws(ExportError) {
        input.withLock { fd in
            if fd >= 0 { close(fd) }
            fd = -1
        }
    }

    public func cancel() {
        let wasOpen = input.withLock { fd in
            defer { fd = -1 }
            if fd >= 0 { close(fd); return true }
            return false
        }
        guard wasOpen else { return }
        reaping.unlessReaping { _ = kill(pid, SIGKILL) }
    }

    /// Reads ffmpeg's output to its end, then reaps it: a clean exit finishes the stream, any
    /// other ends it with the error.
    private static func drain(_ fd: Int32, pid: pid_t, format: String, reaping: ReapGuard, into continuation: AsyncThrowingStream<[UInt8], any Error>.Continuation) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                continuation.yield(Array(buffer[0..<count]))
            } else if count < 0, errno == EINTR {
                continue
            } else {
                break
            }
        }
        close(fd)
        reaping.begin()
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let signal = status & 0x7F
        let exitCode = (status >> 8) & 0xFF
        if signal == 0, exitCode == 0 {
            continuation.finish()
        } else {
            let outcome = signal == 0 ? "ffmpeg exited with status \(exitCode)" : "ffmpeg was stopped by signal \(signal)"
            continuation.finish(throwing: ExportError.encoderFailed(format: format, reason: outcome))
        }
    }
}

/// Whether a child is about to be reaped, so that nobody signals its pid after that.
private final class ReapGuard: Sendable {
    private let started = Mutex(false)

    func begin() {
        started.withLock { $0 = true }
    }

    /// Runs `body` only if reaping has not begun, holding the lock so it cannot begin meanwhile.
    func unlessReaping(_ body: () -> Void) {
        started.withLock { started in
            if !started { body() }
        }
    }
}
