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
    /// Where the bytes go: a file renamed into place, or a stream written through.
    private enum Sink {
        case file(AtomicFile)
        case stream(Int32)
    }
    private let sink: Sink
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
            guard let descriptor = target.openStream() else { throw .outputFailed(.last(path: path)) }
            sink = .stream(descriptor)
            return
        }
        let folder = destination.lastIndex(of: "/").map { String(destination[..<$0]) } ?? ""
        TemporaryFileName.removeAbandoned(in: folder.isEmpty && destination.hasPrefix("/") ? "/" : folder)
        do {
            sink = .file(try AtomicFile(destination: destination))
        } catch {
            throw .outputFailed(OutputError(path: path, error))
        }
    }

    deinit {
        if !isClosed { discard() }
    }

    /// Appends `audio`'s samples. The first call fixes the sample rate.
    public func append(_ audio: SpeechAudio) throws(SpeechError) {
        try begin(at: audio.sampleRate)
        let failure = audio.samples.withUnsafeBytes { bytes in writeAllReturningError(bytes) }
        if let failure { throw failure }
        try appended(byteCount: audio.samples.count * 2)
    }

    /// Appends the PCM of a cache entry, copied in the kernel from the entry's file: the samples
    /// never enter this process.
    public func append(_ source: EntrySource) throws(SpeechError) {
        try begin(at: source.sampleRate)
        let descriptor: Int32 = switch sink {
        case let .file(file): file.fileDescriptor
        case let .stream(descriptor): descriptor
        }
        do {
            try FileCopy.append(from: source.path, offset: source.pcmOffset, count: source.sampleCount * 2, to: descriptor, destinationName: path)
        } catch {
            throw .outputFailed(OutputError(path: path, error))
        }
        try appended(byteCount: source.sampleCount * 2)
    }

    /// The first call writes the header and fixes the rate; later ones must match it.
    private func begin(at rate: Int) throws(SpeechError) {
        if sampleRate == nil {
            sampleRate = rate
            try writeHeader(sampleRate: rate, dataBytes: isStream ? nil : 0)
        } else if sampleRate != rate {
            throw .outputFailed(OutputError(path: path, cause: .other("audio at \(rate) Hz cannot follow audio at \(sampleRate ?? 0) Hz in one file")))
        }
    }

    private func appended(byteCount: Int) throws(SpeechError) {
        dataBytes += UInt64(byteCount)
        // Long files: start writing back what is written, so `finish`'s fsync does not wait
        // for the whole file at the end.
        if case let .file(file) = sink, dataBytes - writebackStarted >= Self.writebackStep {
            file.startWriteback(offset: writebackStarted, count: dataBytes - writebackStarted)
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
                try writeHeader(sampleRate: defaultSampleRate, dataBytes: isStream ? nil : 0)
            }
            switch sink {
            case let .stream(descriptor):
                isClosed = true
                if descriptor != STDOUT_FILENO, close(descriptor) != 0, errno != EINTR {
                    throw .outputFailed(.last(path: path))
                }
            case let .file(file):
                guard dataBytes <= UInt64(UInt32.max) - UInt64(Self.headerSize) else {
                    throw .outputFailed(OutputError(path: path, cause: .tooLong(format: "WAV", limit: "4 GiB")))
                }
                try writeHeader(sampleRate: sampleRate ?? defaultSampleRate, dataBytes: dataBytes, at: 0)
                do {
                    try file.commit()
                } catch {
                    throw .outputFailed(OutputError(path: path, error))
                }
                isClosed = true
            }
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
        switch sink {
        case let .stream(descriptor):
            if descriptor != STDOUT_FILENO { close(descriptor) }
        case let .file(file):
            file.discard()
        }
    }

    private var isStream: Bool {
        if case .stream = sink { true } else { false }
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
        if let offset, case let .file(file) = sink {
            do {
                try file.write(header, at: offset)
            } catch {
                throw .outputFailed(OutputError(path: path, error))
            }
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
        switch sink {
        case let .file(file):
            do {
                try file.write(bytes)
            } catch {
                throw .outputFailed(OutputError(path: path, error))
            }
        case let .stream(descriptor):
            guard var cursor = bytes.baseAddress else { return }
            var remaining = bytes.count
            while remaining > 0 {
                let written = write(descriptor, cursor, remaining)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw .outputFailed(.last(path: path))
                }
                remaining -= written
                cursor += written
            }
        }
    }
}
