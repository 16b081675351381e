import Crypto
import Glibc
import NarrateDomain

/// A voice file being downloaded: `<folder>/.<file>.part` (a name the voice catalog never lists,
/// since it lists `*.onnx` only), appended to as bytes arrive and hashed on the way (MD5 and
/// SHA-256), so a whole file is never read back. A part left by an interrupted run is hashed
/// once when opened, and the download goes on from its end. Owns its descriptor.
final class VoiceDownloadPart {
    let path: String
    /// Bytes in the file.
    private(set) var size: Int64 = 0
    private let descriptor: Int32
    private var md5 = Insecure.MD5()
    private var sha256 = SHA256()

    /// The staging path of `fileName` in `directory`.
    static func path(for fileName: String, in directory: String) -> String {
        directory + "/." + fileName + ".part"
    }

    /// Opens (or creates) the part and hashes what it holds.
    convenience init(path: String) throws(VoiceInstallError) {
        try self.init(path: path, flags: O_RDWR | O_CREAT | O_CLOEXEC)
    }

    /// Opens `path` with `flags` and hashes what it holds, leaving the offset at its end.
    private init(path: String, flags: Int32) throws(VoiceInstallError) {
        self.path = path
        descriptor = open(path, flags, 0o644)
        guard descriptor >= 0 else { throw Self.failure("open", path) }
        var block = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = block.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw Self.failure("read", path) }
            if count == 0 { break }
            block.withUnsafeBytes { hash(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            size += Int64(count)
        }
    }

    deinit {
        close(descriptor)
    }

    /// Empties the part, to start the download over.
    func reset() throws(VoiceInstallError) {
        guard ftruncate(descriptor, 0) == 0, lseek(descriptor, 0, SEEK_SET) == 0 else { throw Self.failure("truncate", path) }
        size = 0
        md5 = Insecure.MD5()
        sha256 = SHA256()
    }

    /// Appends `bytes`.
    func append(_ bytes: UnsafeRawBufferPointer) throws(VoiceInstallError) {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw Self.failure("write", path) }
            offset += written
        }
        hash(bytes)
        size += Int64(bytes.count)
    }

    /// Flushes the part to disk and gives its size and digests.
    func finish() throws(VoiceInstallError) -> VoiceFileFacts {
        guard fsync(descriptor) == 0 else { throw Self.failure("fsync", path) }
        return VoiceFileFacts(path: path, bytes: size, md5: Hex.encode(md5.finalize()), sha256: Hex.encode(sha256.finalize()))
    }

    /// Deletes the part.
    func remove() {
        unlink(path)
    }

    /// The size and digests of a file already in place; `nil` when there is none.
    static func facts(of path: String) throws(VoiceInstallError) -> VoiceFileFacts? {
        guard access(path, F_OK) == 0 else { return nil }
        let reader = try VoiceDownloadPart(path: path, flags: O_RDONLY | O_CLOEXEC)
        return VoiceFileFacts(path: path, bytes: reader.size, md5: Hex.encode(reader.md5.finalize()), sha256: Hex.encode(reader.sha256.finalize()))
    }

    private func hash(_ bytes: UnsafeRawBufferPointer) {
        md5.update(bufferPointer: bytes)
        sha256.update(bufferPointer: bytes)
    }

    private static func failure(_ operation: String, _ path: String) -> VoiceInstallError {
        let error = SystemCallError.last(operation, path)
        return .writeFailed(path: path, reason: error.reason)
    }
}
