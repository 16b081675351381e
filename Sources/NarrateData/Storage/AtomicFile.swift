import CNarrateSystem
import Foundation
import Glibc

/// The one atomic writer: a file written under a `TemporaryFileName` beside its destination
/// and registered in `TemporaryFileRegistry`. Only `commit` moves it into place, so the
/// destination never holds a partial file. Owns its descriptor: `deinit` closes it and, unless
/// committed, removes the file. Encoders also use it for scratch files that are never committed.
///
/// Errors name the destination, because that is what the user asked for.
final class AtomicFile {
    /// The path the file is meant for.
    let destination: String
    /// Where the bytes are while being written.
    let path: String
    private let descriptor: Int32
    private var isClosed = false

    /// Creates an empty file beside `destination` (its name gets `suffix` appended).
    /// - Throws: `SystemCallError` when the folder is missing or not writable.
    init(destination: String, suffix: String = "") throws(SystemCallError) {
        let path = TemporaryFileName.beside(destination) + suffix
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .last("open", destination) }
        self.destination = destination
        self.path = path
        self.descriptor = descriptor
        TemporaryFileRegistry.register(path)
    }

    deinit {
        discard()
    }

    /// Appends all of `bytes`.
    func write(_ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
        try write([bytes])
    }

    /// Appends all of `parts`, in order, with as few `writev` calls as the kernel allows.
    func write(_ parts: [UnsafeRawBufferPointer]) throws(SystemCallError) {
        var vectors = parts.filter { $0.count > 0 }.map { iovec(iov_base: UnsafeMutableRawPointer(mutating: $0.baseAddress), iov_len: $0.count) }
        var first = 0
        while first < vectors.count {
            let written = vectors[first...].withUnsafeBufferPointer { writev(descriptor, $0.baseAddress, Int32($0.count)) }
            if written < 0 {
                if errno == EINTR { continue }
                throw .last("write", destination)
            }
            if written == 0 { throw SystemCallError(operation: "write", path: destination, code: EIO) }
            var remaining = written
            while first < vectors.count, remaining >= vectors[first].iov_len {
                remaining -= vectors[first].iov_len
                first += 1
            }
            if remaining > 0 {
                vectors[first].iov_base += remaining
                vectors[first].iov_len -= remaining
            }
        }
    }

    /// Appends all of `bytes`.
    func write(_ bytes: [UInt8]) throws(SystemCallError) {
        // `withUnsafeBytes` rethrows untyped errors, so the error travels out as a value.
        let error: SystemCallError? = bytes.withUnsafeBytes { buffer in
            do throws(SystemCallError) {
                try write(buffer)
                return nil
            } catch {
                return error
            }
        }
        if let error { throw error }
    }

    /// Overwrites `bytes.count` bytes at `offset` (a header completed after the data).
    func write(_ bytes: [UInt8], at offset: Int) throws(SystemCallError) {
        var done = 0
        while done < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                pwrite(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw .last("write", destination)
            }
            if written == 0 { throw SystemCallError(operation: "write", path: destination, code: EIO) }
            done += written
        }
    }

    /// Asks the kernel to start writing `count` bytes from `offset` back to disk, so that a long
    /// file's `commit` does not wait for all of it at the end. Best effort.
    func startWriteback(offset: UInt64, count: UInt64) {
        _ = narrate_start_writeback(descriptor, Int64(offset), Int64(count))
    }

    /// The file's whole content (for logs written by a child process).
    func contents() -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        var offset = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return bytes }
            bytes.append(contentsOf: chunk[..<count])
            offset += count
        }
    }

    /// The descriptor, for handing to a child process as its standard error.
    var fileDescriptor: Int32 { descriptor }

    /// Flushes the file to disk (unless `durable` is false) and renames it to `destination`.
    /// On failure the temporary file is removed and the destination is untouched.
    ///
    /// Without the fsync a rename still makes the file appear whole or not at all to every
    /// reader while the system runs; only a power cut can leave it torn. The audio cache skips
    /// it: every entry is verified on read and can be synthesized again.
    func commit(durable: Bool = true) throws(SystemCallError) {
        guard !isClosed else { throw SystemCallError(operation: "commit", path: destination, code: EBADF) }
        isClosed = true
        defer { TemporaryFileRegistry.unregister(path) }
        if durable, fsync(descriptor) != 0 {
            let error = SystemCallError.last("fsync", destination)
            close(descriptor)
            unlink(path)
            throw error
        }
        guard close(descriptor) == 0 else {
            let error = SystemCallError.last("close", destination)
            unlink(path)
            throw error
        }
        guard rename(path, destination) == 0 else {
            let error = SystemCallError.last("rename", destination)
            unlink(path)
            throw error
        }
    }

    /// Writes a small file whole: temporary file, fsync, rename. The destination is untouched on failure.
    static func writeWhole(_ bytes: [UInt8], to destination: String) throws(SystemCallError) {
        let file = try AtomicFile(destination: destination)
        try file.write(bytes)
        try file.commit()
    }

    /// `writeWhole`, unless the file already holds exactly `bytes`: a finished export rewrites
    /// nothing.
    static func writeWholeIfChanged(_ bytes: [UInt8], to destination: String) throws(SystemCallError) {
        if let existing = FileManager.default.contents(atPath: destination), existing.elementsEqual(bytes) { return }
        try writeWhole(bytes, to: destination)
    }

    /// Closes and removes the file; the destination is untouched. Safe to call more than once.
    func discard() {
        guard !isClosed else { return }
        isClosed = true
        close(descriptor)
        unlink(path)
        TemporaryFileRegistry.unregister(path)
    }
}

/// Writes a small file whole at `path`: a temporary name, fsync, rename; `path` is untouched on
/// failure (`AtomicFile.writeWhole`, for the front ends).
public func writeFileAtomically(_ bytes: [UInt8], to path: String) throws {
    try AtomicFile.writeWhole(bytes, to: path)
}
