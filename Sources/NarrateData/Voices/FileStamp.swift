import Glibc

// `struct stat`'s members are attributed to whichever module first included <sys/stat.h>;
// with MemberImportVisibility these imports must name them (CoreFoundation, CDispatch).
import CDispatch
import CoreFoundation

/// What tells a file's change without reading it: device, inode, size and modification time
/// (`[-1]` for a file that is not there). Voices are hashed again only when theirs changes.
enum FileStamp {
    static func of(_ path: String) -> [Int] {
        var status = stat()
        guard stat(path, &status) == 0 else { return [-1] }
        return [Int(status.st_dev), Int(status.st_ino), Int(status.st_size), Int(status.st_mtim.tv_sec), Int(status.st_mtim.tv_nsec)]
    }
}
