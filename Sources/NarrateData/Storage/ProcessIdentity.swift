import Glibc

/// A process told apart from a later one that reuses its PID: its PID and the time it started
/// (clock ticks after boot, field 22 of `/proc/PID/stat`).
struct ProcessIdentity: Equatable, Sendable {
    var pid: pid_t
    var startTicks: UInt64

    /// This boot of this machine (the first 8 hex digits of the kernel's boot ID): a PID means
    /// something only on the machine, and in the boot, that gave it.
    static let bootID: String = {
        let fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return "00000000" }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        let hex = buffer.prefix(max(0, count)).filter { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
        return hex.count >= 8 ? String(decoding: hex.prefix(8), as: UTF8.self) : "00000000"
    }()

    /// This process.
    static let current = ProcessIdentity(pid: getpid(), startTicks: startTicks(of: getpid()) ?? 0)

    /// Whether that process is still running (the same one, not another with its PID).
    var isRunning: Bool {
        guard let ticks = Self.startTicks(of: pid) else { return false }
        return startTicks == 0 || ticks == startTicks
    }

    /// When `pid` started, or `nil` when no such process runs.
    static func startTicks(of pid: pid_t) -> UInt64? {
        let fd = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        // "pid (comm) state ppid …": comm may hold spaces and parentheses, so count fields after
        // the last ')'. The start time is field 22, the 20th after it.
        let line = buffer[..<count]
        guard let close = line.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = line[(close + 1)...].split(separator: UInt8(ascii: " "))
        guard fields.count > 19 else { return nil }
        return UInt64(String(decoding: fields[19], as: UTF8.self))
    }
}
