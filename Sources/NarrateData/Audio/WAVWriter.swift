import CNarrateSystem
import Glibc
import NarrateDomain

/// Writes 16-bit mono PCM as a RIFF WAVE file, streaming: samples go to disk as they come.
///
/// A regular file (or a new path, or a symbolic link's final target) is written under a
/// temporary name in its folder, then its header is completed, it is fsynced and renamed into
/// place, so the destination never holds a partial file; temporary files that killed runs left
/// in that folder are removed first. `-`, a device, a FIFO or a socket is written through as a
/// stream (never replaced), with the sizes in the header left at their "unknown length"
/// maximum because a stream cannot be rewound.
public final class WAVWriter {
    /// The destination path, or `-` for standard output.
    public let path: String
    private let fd: Int32
    private let temporaryPath: String?
    /// Where the temporary file is renamed to: `path`, or its symbolic link's final target.
    private let destinationPath: String?
    private var sampleRate: Int?
    private var dataBytes: UInt64 = 0
    /// Bytes handed to the kernel for writeback so far (see `append`).
    private var writebackStarted: UInt64 = 0
    static let writebackStep: UInt64 = 32 * 1024 * 1024
    private var isClosed = false

    public static let standardOutputPath = "-"
    static let headerSize = 44

    /// Opens the destination for writing (a temporary file beside it, or standard output).
    /// - Throws: `SpeechError.outputFailed` when the folder is missing or not writable.
    public init(path: String) throws(SpeechError) {
        self.path = path
        let target = OutputTarget.resolve(path)
        guard case let .file(destination) = target else {
            guard let descriptor = target.openStream() else { throw .outputFailed(path: path, reason: POSIXErrorText.current()) }
            fd = descriptor
            temporaryPath = nil
            destinationPath = nil
            return
        }
        let folder = destination.lastIndex(of: "/").map { String(destination[..<$0]) } ?? ""
        TemporaryFileName.removeAbandoned(in: folder.isEmpty && destination.hasPrefix("/") ? "/" : folder)
        let temporary = TemporaryFileName.beside(destination)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .outputFailed(path: path, reason: POSIXErrorText.current()) }
        fd = descriptor
        temporaryPath = temporary
        destinationPath = destination
        TemporaryFileRegistry.register(temporary)
    }

    deinit {
        if !isClosed { discard() }
    }

    /// Appends `audio`'s samples. The first call fixes the sample rate.
    public func append(_ audio: SpeechAudio) throws(SpeechError) {
        if sampleRate == nil {
            sampleRate = audio.sampleRate
            try writeHeader(sampleRate: audio.sampleRate, dataBytes: temporaryPath == nil ? nil : 0)
        } else if sampleRate != audio.sampleRate {
            throw .outputFailed(path: path, reason: "audio at \(audio.sampleRate) Hz cannot follow audio at \(sampleRate ?? 0) Hz in one file")
        }
        let failure = audio.samples.withUnsafeBytes { bytes in writeAllReturningError(bytes) }
        if let failure { throw failure }
        dataBytes += UInt64(audio.samples.count * 2)
        // Long files: start writing back what is written, so `finish`'s fsync does not wait
        // for the whole file at the end.
        if temporaryPath != nil, dataBytes - writebackStarted >= Self.writebackStep {
            _ = narrate_start_writeback(fd, Int64(writebackStarted), Int64(dataBytes - writebackStarted))
            writebackStarted = dataBytes
        }
    }

    /// Completes the header, flushes the file to disk and moves it into place.
    /// - Parameter defaultSampleRate: the rate written when no audio was appended.
    public func finish(defaultSampleRate: Int = 22_050) throws(SpeechError) {
        guard !isClosed else { return }
        do throws(SpeechError) {
            if sampleRate == nil {
                sampleRate = defaultSampleRate
                try writeHeader(sampleRate: defaultSampleRate, dataBytes: temporaryPath == nil ? nil : 0)
            }
            guard let temporaryPath else {
                isClosed = true
                if fd != STDOUT_FILENO, close(fd) != 0, errno != EINTR {
                    throw .outputFailed(path: path, reason: POSIXErrorText.current())
                }
                return
            }
            guard dataBytes <= UInt64(UInt32.max) - UInt64(Self.headerSize) else {
                throw .outputFailed(path: path, reason: "the audio is longer than a WAV file can hold (4 GiB); narrate fewer pages at a time")
            }
            try writeHeader(sampleRate: sampleRate ?? defaultSampleRate, dataBytes: dataBytes, at: 0)
            guard fsync(fd) == 0 else { throw .outputFailed(path: path, reason: POSIXErrorText.current()) }
            let closed = close(fd)
            isClosed = true
            guard closed == 0 else {
                unlink(temporaryPath)
                TemporaryFileRegistry.unregister(temporaryPath)
                throw .outputFailed(path: path, reason: POSIXErrorText.current())
            }
            guard rename(temporaryPath, destinationPath ?? path) == 0 else {
                let reason = POSIXErrorText.current()
                unlink(temporaryPath)
                TemporaryFileRegistry.unregister(temporaryPath)
                throw .outputFailed(path: path, reason: reason)
            }
            TemporaryFileRegistry.unregister(temporaryPath)
        } catch {
            // Any failure before the rename: close and remove the temporary file.
            discard()
            throw error
        }
    }

    /// Abandons the output: the temporary file is removed, the destination is untouched.
    public func discard() {
        guard !isClosed else { return }
        isClosed = true
        guard let temporaryPath else {
            if fd != STDOUT_FILENO { close(fd) }
            return
        }
        close(fd)
        unlink(temporaryPath)
        TemporaryFileRegistry.unregister(temporaryPath)
    }

    // MARK: - Private

    /// The canonical 44-byte header; `nil` sizes mean "unknown length" (streaming).
    static func header(sampleRate: Int, dataBytes: UInt64?) -> [UInt8] {
        let data = dataBytes.map { UInt32(clamping: $0) } ?? 0xFFFF_FFFF
        let riff = dataBytes.map { UInt32(clamping: $0 + 36) } ?? 0xFFFF_FFFF
        var bytes: [UInt8] = []
        bytes.reserveCapacity(headerSize)
        func append32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        func append16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        bytes.append(contentsOf: Array("RIFF".utf8)); append32(riff)
        bytes.append(contentsOf: Array("WAVE".utf8))
        bytes.append(contentsOf: Array("fmt ".utf8)); append32(16)
        append16(1)  // PCM
        append16(1)  // mono
        append32(UInt32(sampleRate))
        append32(UInt32(sampleRate * 2))  // byte rate
        append16(2)  // block align
        append16(16)  // bits per sample
        bytes.append(contentsOf: Array("data".utf8)); append32(data)
        return bytes
    }

    private func writeHeader(sampleRate: Int, dataBytes: UInt64?, at offset: Int? = nil) throws(SpeechError) {
        let header = Self.header(sampleRate: sampleRate, dataBytes: dataBytes)
        if let offset {
            let written = header.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(offset)) }
            guard written == header.count else { throw .outputFailed(path: path, reason: POSIXErrorText.current()) }
        } else {
            let failure = header.withUnsafeBytes { bytes in writeAllReturningError(bytes) }
            if let failure { throw failure }
        }
    }

    /// `withUnsafeBytes` rethrows untyped errors, so the writer reports its error as a value.
    private func writeAllReturningError(_ bytes: UnsafeRawBufferPointer) -> SpeechError? {
        do {
            try writeAll(bytes)
            return nil
        } catch {
            return error
        }
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws(SpeechError) {
        guard var cursor = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let written = write(fd, cursor, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                throw .outputFailed(path: path, reason: POSIXErrorText.current())
            }
            remaining -= written
            cursor += written
        }
    }
}
