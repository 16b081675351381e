import Glibc
import NarrateDomain

/// A file written under a temporary name beside its destination and registered in
/// `TemporaryFileRegistry`. Only `commit()` moves it into place (after fsync), so the destination
/// never holds a partial file. Owns its descriptor: `deinit` closes it and, unless committed,
/// removes the file. Encoders also use it for scratch files that are never committed.
final class TemporaryOutputFile {
    /// The path the file is meant for; errors name it, because that is what the user asked for.
    let destination: String
    /// Where the bytes are while being written.
    let path: String
    private let descriptor: Int32
    private var isClosed = false

    /// Creates an empty file beside `destination` (its name gets `suffix` appended).
    /// - Throws: `ExportError.outputFailed` when the folder is missing or not writable.
    init(destination: String, suffix: String = "") throws(ExportError) {
        let path = TemporaryFileName.beside(destination) + suffix
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .outputFailed(path: destination, reason: POSIXErrorText.current()) }
        self.destination = destination
        self.path = path
        self.descriptor = descriptor
        TemporaryFileRegistry.register(path)
    }

    deinit {
        discard()
    }

    /// Appends all of `bytes`.
    func write(_ bytes: UnsafeRawBufferPointer) throws(ExportError) {
        guard var cursor = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let written = Glibc.write(descriptor, cursor, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                throw failure()
            }
            remaining -= written
            cursor += written
        }
    }

    /// Appends all of `bytes`.
    func write(_ bytes: [UInt8]) throws(ExportError) {
        // `withUnsafeBytes` rethrows untyped errors, so the error travels out as a value.
        let error: ExportError? = bytes.withUnsafeBytes { buffer in
            do throws(ExportError) {
                try write(buffer)
                return nil
            } catch {
                return error
            }
        }
        if let error { throw error }
    }

    /// Overwrites `bytes.count` bytes at `offset` (a header completed after the data).
    func write(_ bytes: [UInt8], at offset: Int) throws(ExportError) {
        var done = 0
        while done < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                pwrite(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw failure()
            }
            done += written
        }
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

    /// Flushes the file to disk and renames it to `destination`.
    /// On failure the temporary file is removed and the destination is untouched.
    func commit() throws(ExportError) {
        guard !isClosed else { throw .outputFailed(path: destination, reason: "the file was already closed") }
        isClosed = true
        defer { TemporaryFileRegistry.unregister(path) }
        guard fsync(descriptor) == 0 else {
            let error = failure()
            close(descriptor)
            unlink(path)
            throw error
        }
        guard close(descriptor) == 0, rename(path, destination) == 0 else {
            let error = failure()
            unlink(path)
            throw error
        }
    }

    /// Writes a small file whole: temporary file, fsync, rename. The destination is untouched on failure.
    static func writeWhole(_ bytes: [UInt8], to destination: String) throws(ExportError) {
        let file = try TemporaryOutputFile(destination: destination)
        try file.write(bytes)
        try file.commit()
    }

    /// Closes and removes the file; the destination is untouched. Safe to call more than once.
    func discard() {
        guard !isClosed else { return }
        isClosed = true
        close(descriptor)
        unlink(path)
        TemporaryFileRegistry.unregister(path)
    }

    private func failure() -> ExportError {
        .outputFailed(path: destination, reason: POSIXErrorText.current())
    }
}
