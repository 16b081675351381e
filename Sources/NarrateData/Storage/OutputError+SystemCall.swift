import Glibc
import NarrateDomain

extension OutputError {
    /// The output error a failed system call means for the file at `path`.
    init(path: String, _ error: SystemCallError) {
        self.init(path: path, cause: Self.cause(of: error.code))
        if case .other = cause { cause = .other(error.message) }
    }

    /// The output error of `errno` as the last system call left it.
    static func last(path: String) -> OutputError {
        OutputError(path: path, SystemCallError(operation: "", path: path, code: errno))
    }

    private static func cause(of code: Int32) -> Cause {
        switch code {
        case EEXIST, ENOTDIR, EISDIR: .alreadyExists
        case EACCES, EPERM, EROFS: .permissionDenied
        case ENOSPC, EDQUOT: .noSpace
        case ENOENT: .missingFolder
        default: .other(SystemCallError.message(code))
        }
    }
}
