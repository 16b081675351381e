import Glibc

// `struct stat`'s members are attributed to whichever module first included <sys/stat.h>;
// with MemberImportVisibility these imports must name them.
import CDispatch
import CoreFoundation

/// What `-o PATH` writes to, decided once before anything is written.
///
/// Only a regular file (or a path where nothing is yet) is written under a temporary name
/// beside it and renamed into place. A device, a FIFO or a socket is written through, as a
/// stream: renaming over one would replace it (`-o /dev/null` as root would destroy the
/// device). A symbolic link is followed, and its final target is what gets replaced; the link
/// stays a link.
enum OutputTarget: Equatable {
    /// Standard output (`-`).
    case standardOutput
    /// A character or block device, or a FIFO: opened for writing, no temporary file.
    case stream(path: String)
    /// A Unix socket: connected to, no temporary file.
    case socket(path: String)
    /// A regular file, new or replaced, at `path` (a symbolic link's final target).
    case file(path: String)

    /// Links followed at most, as the kernel does.
    static let maxLinks = 40

    static func resolve(_ path: String) -> OutputTarget {
        if path == "-" { return .standardOutput }
        var current = path
        for _ in 0..<maxLinks {
            var info = stat()
            guard lstat(current, &info) == 0 else { return .file(path: current) }  // a new path
            switch info.st_mode & S_IFMT {
            case S_IFLNK:
                guard let target = readLink(current) else { return .file(path: current) }
                current = target.hasPrefix("/") ? target : folder(of: current) + target
            case S_IFCHR, S_IFBLK, S_IFIFO:
                return .stream(path: current)
            case S_IFSOCK:
                return .socket(path: current)
            default:
                return .file(path: current)
            }
        }
        return .file(path: current)  // a loop: opening it reports ELOOP
    }

    /// Opens a stream or socket target for writing. `nil` with errno set on failure.
    func openStream() -> Int32? {
        switch self {
        case .standardOutput:
            return STDOUT_FILENO
        case let .stream(path):
            let fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY)
            return fd >= 0 ? fd : nil
        case let .socket(path):
            return Self.connect(path)
        case .file:
            return nil
        }
    }

    private static func connect(_ path: String) -> Int32? {
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else {
            close(fd)
            errno = ENAMETOOLONG
            return nil
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let saved = errno
            close(fd)
            errno = saved
            return nil
        }
        return fd
    }

    private static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[...slash])
    }
}
