import Glibc

// `struct stat`'s members are attributed to whichever module first included <sys/stat.h>;
// with MemberImportVisibility these imports must name them.
import CDispatch
import CoreFoundation

/// Folders made with plain system calls, so a failure keeps its `errno` (the advice depends on it).
enum Folder {
    /// Creates `path` as a folder unless it exists.
    static func make(_ path: String) throws(SystemCallError) {
        if mkdir(path, 0o755) != 0, errno != EEXIST { throw .last("mkdir", path) }
    }

    /// `mkdir -p`: creates `path` and its missing parents. Something other than a folder in
    /// the way is `ENOTDIR`.
    static func makeAll(_ path: String) throws(SystemCallError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/\(component)"
            try make(prefix)
        }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw SystemCallError(operation: "mkdir", path: path, code: ENOTDIR)
        }
    }
}
