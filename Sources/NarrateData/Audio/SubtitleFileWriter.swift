import Glibc
import NarrateDomain

/// Writes a subtitle file (or any small text file) so that the destination is either untouched or complete.
///
/// The text goes to a temporary file beside the destination, which is fsynced and then renamed over it; on
/// failure the temporary file is removed.
public enum SubtitleFileWriter {
    /// Writes `contents` as UTF-8 to `path`, replacing any file there.
    /// - Throws: `ExportError.outputFailed` when the folder is missing or not writable, the disk is full, or
    ///   `path` names a folder.
    public static func write(_ contents: String, to path: String) throws(ExportError) {
        let temporary = TemporaryFileName.beside(path)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .outputFailed(path: path, reason: POSIXErrorText.current()) }
        TemporaryFileRegistry.register(temporary)
        defer { TemporaryFileRegistry.unregister(temporary) }

        var isOpen = true
        func fail() -> ExportError {
            let reason = POSIXErrorText.current()
            if isOpen { close(descriptor) }
            unlink(temporary)
            return .outputFailed(path: path, reason: reason)
        }

        let bytes = Array(contents.utf8)
        let written = bytes.withUnsafeBytes { buffer in writeAll(buffer, to: descriptor) }
        guard written else { throw fail() }
        guard fsync(descriptor) == 0 else { throw fail() }
        isOpen = false
        guard close(descriptor) == 0 else { throw fail() }
        guard rename(temporary, path) == 0 else { throw fail() }
    }

    /// Writes every byte, retrying short writes and interruptions; `false` with `errno` set on failure.
    private static func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
        guard var cursor = buffer.baseAddress else { return true }
        var remaining = buffer.count
        while remaining > 0 {
            let written = Glibc.write(descriptor, cursor, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            remaining -= written
            cursor += written
        }
        return true
    }
}
