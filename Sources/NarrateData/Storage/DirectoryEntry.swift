import Glibc

/// One entry `readdir` returns.
enum DirectoryEntry {
    /// The entry's file name, read in place up to its NUL. A record is only as long as its name
    /// (`d_reclen`): copying the whole 256-byte `d_name` field, as `entry.pointee.d_name` does,
    /// reads past the end of `readdir`'s buffer when the record is the last one in it, and
    /// crashed `narrate say` when that buffer ended at a page's end.
    static func name(of entry: UnsafeMutablePointer<dirent>) -> String {
        let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 19
        return String(cString: UnsafeRawPointer(entry).advanced(by: offset).assumingMemoryBound(to: CChar.self))
    }
}
