#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// `struct stat`'s members are attributed to whichever module first included <sys/stat.h>;
// with MemberImportVisibility these imports must name them (CoreFoundation, CDispatch).
import CDispatch
import CoreFoundation
import Foundation
import NarrateDomain

/// `read(2)`, named so that `AudioCacheEntryFile.read(path:key:)` does not shadow it.
private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}

/// Reads entry files with plain POSIX calls (they are written by `AtomicFile`): the PCM goes straight between the
/// kernel and the sample buffer, and is hashed chunk by chunk while it is still in cache.
enum AudioCacheEntryFile {
    /// What reading an entry found.
    enum ReadOutcome: Sendable {
        case missing
        /// The file exists but is not a valid entry for the key; `identity` names the inode that
        /// was read, so only that file is removed (not a fresh entry renamed over it meanwhile).
        case corrupt(reason: String, identity: FileIdentity?)
        case entry(SpeechAudio, fileSize: Int)
    }

    /// Device and inode of a file.
    struct FileIdentity: Sendable, Equatable {
        var device: UInt64
        var inode: UInt64
    }

    /// Reading and hashing step; large enough for few syscalls, small enough to hash from L2.
    static let chunkSize = 1 << 20

    // MARK: - Reading

    /// Reads and fully verifies the entry at `path` (header, exact length, CRC-32C).
    static func read(path: String, key: AudioCacheKey) -> ReadOutcome {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let error = SystemCallError.last("open", path)
            return error.code == ENOENT ? .missing : .corrupt(reason: error.reason, identity: nil)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            return .corrupt(reason: SystemCallError.last("fstat", path).reason, identity: nil)
        }
        let identity = FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        let fileSize = Int(info.st_size)
        do {
            return .entry(try readVerified(fd: fd, path: path, key: key, fileSize: fileSize), fileSize: fileSize)
        } catch let error as AudioCacheEntryError {
            return .corrupt(reason: error.reason, identity: identity)
        } catch let error as SystemCallError {
            return .corrupt(reason: error.reason, identity: identity)
        } catch {
            return .corrupt(reason: "\(error)", identity: identity)
        }
    }

    private static func readVerified(fd: Int32, path: String, key: AudioCacheKey, fileSize: Int) throws -> SpeechAudio {
        var hasher = EntryChecksum()

        var fixed = [UInt8](repeating: 0, count: AudioCacheEntryCodec.fixedHeaderSize)
        let fixedRead = try fixed.withUnsafeMutableBytes { try readFully(fd, into: $0, path: path) }
        guard fixedRead == fixed.count else {
            throw AudioCacheEntryError.lengthMismatch(expected: AudioCacheEntryCodec.fixedHeaderSize + AudioCacheEntryCodec.digestSize, actual: fileSize)
        }
        let header = try fixed.withUnsafeBytes { raw throws(AudioCacheEntryError) in
            try AudioCacheEntryCodec.decodeHeader(raw, expectedKey: key, fileSize: fileSize)
        }
        fixed.withUnsafeBytes { hasher.update(bufferPointer: $0) }

        var markBytes = [UInt8](repeating: 0, count: header.marksByteCount)
        try markBytes.withUnsafeMutableBytes { buffer in
            guard try readFully(fd, into: buffer, path: path) == buffer.count else {
                throw AudioCacheEntryError.lengthMismatch(expected: header.entryByteCount, actual: fileSize)
            }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(buffer))
        }
        let marks = try markBytes.withUnsafeBytes { raw throws(AudioCacheEntryError) in
            try AudioCacheEntryCodec.decodeMarks(raw, count: header.markCount, sampleCount: header.sampleCount)
        }

        var failure: (any Error)?
        let samples = [Int16](unsafeUninitializedCapacity: header.sampleCount) { buffer, initialized in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            var offset = 0
            do {
                while offset < raw.count {
                    let chunk = UnsafeMutableRawBufferPointer(rebasing: raw[offset..<min(raw.count, offset + chunkSize)])
                    guard try readFully(fd, into: chunk, path: path) == chunk.count else {
                        throw AudioCacheEntryError.lengthMismatch(expected: header.entryByteCount, actual: fileSize)
                    }
                    hasher.update(bufferPointer: UnsafeRawBufferPointer(chunk))
                    offset += chunk.count
                }
                initialized = header.sampleCount
            } catch {
                // Int16 is trivial: leaving nothing initialized is always valid.
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }

        var stored = [UInt8](repeating: 0, count: AudioCacheEntryCodec.digestSize)
        let digestRead = try stored.withUnsafeMutableBytes { try readFully(fd, into: $0, path: path) }
        guard digestRead == stored.count else {
            throw AudioCacheEntryError.lengthMismatch(expected: header.entryByteCount, actual: fileSize)
        }
        guard hasher.finalize().elementsEqual(stored) else { throw AudioCacheEntryError.checksumMismatch }
        return SpeechAudio(sampleRate: header.sampleRate, samples: samples, wordMarks: marks)
    }

    /// Reads only the fixed header of the entry at `path` and checks it against the file size.
    static func readHeader(path: String, key: AudioCacheKey) throws -> AudioCacheEntryCodec.Header {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SystemCallError.last("open", path) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw SystemCallError.last("fstat", path) }
        var fixed = [UInt8](repeating: 0, count: AudioCacheEntryCodec.fixedHeaderSize)
        let count = try fixed.withUnsafeMutableBytes { try readFully(fd, into: $0, path: path) }
        return try fixed.withUnsafeBytes { raw throws(AudioCacheEntryError) in
            try AudioCacheEntryCodec.decodeHeader(UnsafeRawBufferPointer(rebasing: raw[..<count]), expectedKey: key, fileSize: Int(info.st_size))
        }
    }

    /// Fills `buffer` unless the file ends first; returns how many bytes were read.
    private static func readFully(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, path: String) throws(SystemCallError) -> Int {
        var done = 0
        while done < buffer.count {
            let count = posixRead(fd, buffer.baseAddress! + done, buffer.count - done)
            if count < 0 {
                if errno == EINTR { continue }
                throw .last("read", path)
            }
            if count == 0 { break }
            done += count
        }
        return done
    }

    // MARK: - Writing

    // MARK: - Files and folders

    /// Identity, size and modification time of `path`, or `nil` if it does not exist.
    static func status(_ path: String) -> (identity: FileIdentity, size: Int, modified: Double, isDirectory: Bool)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let modified = Double(info.st_mtimespec.tv_sec) + Double(info.st_mtimespec.tv_nsec) / 1e9
        #else
        let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        #endif
        return (FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)), Int(info.st_size), modified, (info.st_mode & S_IFMT) == S_IFDIR)
    }

    /// Removes `path`; a file that is already gone is not an error.
    static func remove(_ path: String) throws(SystemCallError) {
        if unlink(path) != 0, errno != ENOENT { throw .last("unlink", path) }
    }

    /// The names in folder `path` (without `.` and `..`); empty if it does not exist.
    static func names(in path: String) throws(SystemCallError) -> [String] {
        guard let dir = opendir(path) else {
            if errno == ENOENT { return [] }
            throw .last("opendir", path)
        }
        defer { closedir(dir) }
        var names = [String]()
        while let entry = readdir(dir) {
            let name = DirectoryEntry.name(of: entry)
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
