import CNarrateSystem
import Glibc

/// Copies a range of one file to another descriptor in the kernel (`copy_file_range`): the
/// bytes never enter this process. Where the kernel cannot (a pipe or a device as the
/// destination, another file system on older kernels) it falls back to reading and writing.
enum FileCopy {
    /// Appends `count` bytes of `path`, from `offset`, at `destination`'s current position.
    static func append(from path: String, offset: Int, count: Int, to destination: Int32, destinationName: String) throws(SystemCallError) {
        let source = open(path, O_RDONLY | O_CLOEXEC)
        guard source >= 0 else { throw .last("open", path) }
        defer { close(source) }
        var position = Int64(offset)
        var left = count
        while left > 0 {
            let copied = narrate_copy_file_range(source, &position, destination, left)
            if copied < 0 {
                if errno == EINTR { continue }
                if [EXDEV, EINVAL, ENOSYS, EOPNOTSUPP, EBADF].contains(errno) {
                    return try readWrite(source, from: off_t(position), count: left, to: destination, path: path, destinationName: destinationName)
                }
                throw .last("copy_file_range", destinationName)
            }
            if copied == 0 { throw SystemCallError(operation: "read", path: path, code: EIO) }  // the source is shorter
            left -= copied
        }
    }

    private static func readWrite(_ source: Int32, from offset: off_t, count: Int, to destination: Int32, path: String, destinationName: String) throws(SystemCallError) {
        var buffer = [UInt8](repeating: 0, count: min(count, 1 << 20))
        var position = offset
        var left = count
        while left > 0 {
            let read = buffer.withUnsafeMutableBytes { pread(source, $0.baseAddress, min(left, $0.count), position) }
            if read < 0, errno == EINTR { continue }
            if read < 0 { throw .last("read", path) }
            if read == 0 { throw SystemCallError(operation: "read", path: path, code: EIO) }
            var done = 0
            while done < read {
                let written = buffer.withUnsafeBytes { write(destination, $0.baseAddress! + done, read - done) }
                if written < 0, errno == EINTR { continue }
                if written <= 0 { throw .last("write", destinationName) }
                done += written
            }
            position += off_t(read)
            left -= read
        }
    }
}
