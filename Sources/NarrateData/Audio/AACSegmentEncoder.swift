import Foundation
import NarrateDomain
import Synchronization

/// Encodes a long PCM stream to one AAC stream on several cores, as it arrives, without gaps.
///
/// The stream is cut into segments of `segmentSamples` (a whole number of 1,024-sample AAC
/// frames). Each segment is encoded by its own `ffmpeg` (the fast coder, mono, 64 kbps, ADTS),
/// at most `parallelism` at once, with 2,048 samples of the audio before it and after it, so the
/// encoder sees the same signal around every cut as a single encoder would. Of each segment's
/// frames only those of its own samples are kept — the first segment also drops the encoder's
/// priming frame — and joined in order: the result decodes to the stream from sample 0, with
/// joins as clean as the rest (measured: the same signal-to-noise ratio around a join as a
/// single encode gives there), and chapter marks placed by sample count stay exact.
///
/// Segments are written under temporary names beside `destination` and removed as they are used.
final class AACSegmentEncoder: @unchecked Sendable {
    // The caller appends from one thread at a time; the jobs share only `failures`.
    static let frameSamples = 1_024
    static let roll = 2 * frameSamples
    /// About two minutes at 22,050 Hz: long enough that ffmpeg's start costs little, short
    /// enough that a book's cores all get work.
    static let defaultSegmentSamples = 2_560 * frameSamples

    let destination: String
    let sampleRate: Int
    private let ffmpeg: String
    private let bitrate: Int
    private let segmentSamples: Int
    private let queue = DispatchQueue(label: "narrate.aac-segments", attributes: .concurrent)
    private let group = DispatchGroup()
    private let slots: DispatchSemaphore
    private let failures = Mutex<[Int: ExportError]>([:])
    private let cancelled = Mutex(false)

    /// Samples from `pendingStart` on, not yet given to a segment (the next segment's pre-roll included).
    private var pending: [Int16] = []
    private var segments: [Segment] = []
    private var segmentStart = 0

    private struct Segment {
        var index: Int
        /// Samples of pre-roll before the segment's own, and how many are its own.
        var pre: Int
        var own: Int
        var isLast: Bool
        var input: AtomicFile
        var output: AtomicFile
    }

    init(destination: String, sampleRate: Int, ffmpeg: String, bitrate: Int, parallelism: Int = ProcessInfo.processInfo.activeProcessorCount, segmentSamples: Int = AACSegmentEncoder.defaultSegmentSamples) {
        self.destination = destination
        self.sampleRate = sampleRate
        self.ffmpeg = ffmpeg
        self.bitrate = bitrate
        self.segmentSamples = max(Self.frameSamples, segmentSamples / Self.frameSamples * Self.frameSamples)
        slots = DispatchSemaphore(value: max(1, parallelism))
    }

    /// Takes `samples`; every segment whose samples and post-roll are in hand starts encoding.
    func append(_ samples: [Int16]) throws(ExportError) {
        pending += samples
        while true {
            let pre = segments.isEmpty ? 0 : Self.roll
            // Strictly more than a segment and its post-roll: the last segment is never empty.
            guard pending.count > pre + segmentSamples + Self.roll else { break }
            try start(Array(pending[0..<(pre + segmentSamples + Self.roll)]), pre: pre, own: segmentSamples, isLast: false)
            pending.removeFirst(pre + segmentSamples - Self.roll)
            segmentStart += segmentSamples
        }
    }

    /// Encodes what is left, waits for every segment, and writes the joined AAC (ADTS) to `file`.
    /// - Throws: `ExportError.encoderFailed` with ffmpeg's error, `.outputFailed` for the files.
    func finish(into file: AtomicFile) throws(ExportError) {
        let pre = segments.isEmpty ? 0 : Self.roll
        try start(pending, pre: pre, own: pending.count - pre, isLast: true)
        pending = []
        group.wait()
        defer { removeSegments() }
        if let failure = failures.withLock({ $0.sorted { $0.key < $1.key }.first?.value }) { throw failure }
        for segment in segments {
            let bytes = try ExportError.writing(destination) { () throws(SystemCallError) in try Self.read(segment.output.path) }
            let frames = try Self.adtsFrames(bytes)
            try ExportError.writing(destination) { () throws(SystemCallError) in
                try file.write(Self.kept(frames, of: segment, in: bytes))
            }
        }
    }

    /// Stops: queued segments are skipped, running ones finish, and every segment file is removed.
    func discard() {
        cancelled.withLock { $0 = true }
        group.wait()
        removeSegments()
    }

    // MARK: - Segments

    private func start(_ samples: [Int16], pre: Int, own: Int, isLast: Bool) throws(ExportError) {
        let index = segments.count
        let (input, output) = try ExportError.writing(destination) { () throws(SystemCallError) in
            let input = try AtomicFile(destination: destination, suffix: ".seg\(index).pcm")
            let written: Result<Void, SystemCallError> = samples.withUnsafeBytes { bytes in
                Result { () throws(SystemCallError) in try input.write(bytes) }
            }
            do throws(SystemCallError) {
                try written.get()
                return (input, try AtomicFile(destination: destination, suffix: ".seg\(index).aac"))
            } catch {
                input.discard()
                throw error
            }
        }
        segments.append(Segment(index: index, pre: pre, own: own, isLast: isLast, input: input, output: output))
        let arguments = encodeArguments(input: input.path, output: output.path)
        let program = ffmpeg, logBeside = destination
        group.enter()
        queue.async { [self] in
            slots.wait()
            defer {
                slots.signal()
                group.leave()
            }
            guard !cancelled.withLock({ $0 }) else { return }
            do throws(ExportError) {
                let process = try FFmpegProcess(executable: program, arguments: arguments, format: "M4B", logBeside: logBeside, feedsStandardInput: false)
                try process.waitForSuccess()
            } catch {
                failures.withLock { $0[index] = error }
            }
        }
    }

    private func encodeArguments(input: String, output: String) -> [String] {
        #if _endian(big)
            let pcmFormat = "s16be"
        #else
            let pcmFormat = "s16le"
        #endif
        return [
            "-hide_banner", "-nostdin", "-loglevel", "error", "-y",
            "-f", pcmFormat, "-ar", "\(sampleRate)", "-ac", "1", "-i", input,
            // The fast coder is about six times the default one's speed at the same bitrate.
            "-c:a", "aac", "-aac_coder", "fast", "-b:a", "\(bitrate)k", "-ac", "1",
            "-f", "adts", output,
        ]
    }

    private func removeSegments() {
        for segment in segments {
            segment.input.discard()
            segment.output.discard()
        }
    }

    // MARK: - ADTS

    /// The byte ranges of the ADTS frames of `bytes`, in order.
    static func adtsFrames(_ bytes: [UInt8]) throws(ExportError) -> [Range<Int>] {
        var frames: [Range<Int>] = []
        var offset = 0
        while offset < bytes.count {
            guard offset + 7 <= bytes.count, bytes[offset] == 0xFF, bytes[offset + 1] & 0xF6 == 0xF0 else {
                throw .encoderFailed(format: "M4B", reason: "ffmpeg wrote an AAC stream that is not ADTS at byte \(offset)")
            }
            let length = Int(bytes[offset + 3] & 0x03) << 11 | Int(bytes[offset + 4]) << 3 | Int(bytes[offset + 5]) >> 5
            guard length >= 7, offset + length <= bytes.count else {
                throw .encoderFailed(format: "M4B", reason: "ffmpeg wrote an AAC frame cut short at byte \(offset)")
            }
            frames.append(offset..<offset + length)
            offset += length
        }
        return frames
    }

    /// A segment's frames that decode to its own samples. Frame `k` of an encoder's output decodes
    /// to its input samples `(k − 1) × 1024 ..< k × 1024` (frame 0 is the priming), so a segment
    /// keeps frames `pre / 1024 + 1` through `(pre + own) / 1024`; the last segment keeps one more
    /// for a last part frame, and none of the encoder's padding after it.
    private static func kept(_ frames: [Range<Int>], of segment: Segment, in bytes: [UInt8]) -> [UInt8] {
        let first = segment.pre / frameSamples + 1
        let ownFrames = segment.isLast ? (segment.own + frameSamples - 1) / frameSamples : segment.own / frameSamples
        let end = min(frames.count, first + ownFrames)
        guard first < end else { return [] }
        return Array(bytes[frames[first].lowerBound..<frames[end - 1].upperBound])
    }

    private static func read(_ path: String) throws(SystemCallError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else { throw .last("read", path) }
        return Array(data)
    }
}
