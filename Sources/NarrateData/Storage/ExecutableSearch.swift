import Glibc

// `struct stat`'s members are attributed to whichever module first included <sys/stat.h>;
// with MemberImportVisibility these imports must name them.
import CDispatch
import CoreFoundation

/// Finding programs to run.
enum ExecutableSearch {
    /// `program` itself when it contains a slash, else the first match on `searchPath` (by
    /// default `$PATH`); `nil` when there is none.
    static func locate(_ program: String, searchPath: String? = nil) -> String? {
        if program.contains("/") { return isExecutable(program) ? program : nil }
        let folders = searchPath ?? getenv("PATH").map { String(cString: $0) } ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in folders.split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = folder.hasSuffix("/") ? "\(folder)\(program)" : "\(folder)/\(program)"
            if isExecutable(candidate) { return candidate }
        }
        return nil
    }

    /// A regular file this process may execute.
    static func isExecutable(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && access(path, X_OK) == 0
    }

    /// The running program's own path (`/proc/self/exe`).
    static func runningProgram() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
