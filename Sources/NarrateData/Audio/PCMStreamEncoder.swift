import NarrateDomain
import Synchronization

/// WAV, MP3 and resampled raw PCM encoded in this process: each `feed` yields its bytes at once.
///
/// A streamed WAV cannot know its length before the end: its RIFF and data sizes are
/// `0xFFFFFFFF` (as OpenAI's streamed WAV has them) unless `knownSampleCount` gives it. The MP3
/// carries no info frame (it would have to be written back at the start).
public final class PCMStreamEncoder: AudioStreamEncoder {
    public enum Kind: Sendable {
        case wav(knownSampleCount: Int?)
        case mp3(bitrate: Int)
        /// Raw 16-bit little-endian samples at `rate` (OpenAI's `pcm`: 24 kHz).
        case pcm(rate: Int)
    }

    /// LAME's quality for streamed MP3: its own default, about three times as fast as the
    /// files' 2, and alike for speech at 64 kbps (the service's default format is MP3).
    static let streamingQuality = 5

    public let output: AsyncThrowingStream<[UInt8], any Error>
    private let continuation: AsyncThrowingStream<[UInt8], any Error>.Continuation
    private let state: Mutex<State>

    private struct State: ~Copyable {
        var lame: LameEncoder?
        var resampler: PCMResampler?
        var headerPending: [UInt8]
        var isFinished = false
    }

    /// - Throws: `ExportError` when the MP3 encoder refuses the rate or bitrate.
    public init(_ kind: Kind, sampleRate: Int) throws(ExportError) {
        (output, continuation) = AsyncThrowingStream.makeStream(of: [UInt8].self, throwing: (any Error).self, bufferingPolicy: .unbounded)
        switch kind {
        case let .wav(known):
            state = Mutex(State(lame: nil, resampler: nil, headerPending: WAVWriter.header(sampleRate: sampleRate, dataBytes: known.map { UInt64($0) * 2 })))
        case let .mp3(bitrate):
            let lame = try LameEncoder(sampleRate: sampleRate, bitrate: bitrate, quality: Self.streamingQuality, writesInfoFrame: false)
            state = Mutex(State(lame: lame, resampler: nil, headerPending: []))
        case let .pcm(rate):
            state = Mutex(State(lame: nil, resampler: rate == sampleRate ? nil : PCMResampler(from: sampleRate, to: rate), headerPending: []))
        }
    }

    public func feed(_ samples: [Int16]) throws(ExportError) {
        let bytes = try state.withLock { state throws(ExportError) -> [UInt8] in
            guard !state.isFinished else { throw .encoderFailed(format: "audio", reason: "the stream is already finished") }
            var bytes = state.headerPending
            state.headerPending = []
            if let lame = state.lame {
                var encoded = [UInt8](repeating: 0, count: LameEncoder.outputCapacity(for: samples.count))
                let count = try samples.withUnsafeBufferPointer { input throws(ExportError) in
                    try encoded.withUnsafeMutableBufferPointer { output throws(ExportError) in try lame.encode(input, into: output) }
                }
                bytes += encoded.prefix(count)
            } else if state.resampler != nil {
                Self.appendLittleEndian(state.resampler!.process(samples), to: &bytes)
            } else {
                Self.appendLittleEndian(samples, to: &bytes)
            }
            return bytes
        }
        if !bytes.isEmpty { continuation.yield(bytes) }
    }

    public func finish() throws(ExportError) {
        let bytes = try state.withLock { state throws(ExportError) -> [UInt8] in
            guard !state.isFinished else { return [] }
            state.isFinished = true
            var bytes = state.headerPending
            if let lame = state.lame {
                var encoded = [UInt8](repeating: 0, count: 7_200)
                let count = try encoded.withUnsafeMutableBufferPointer { output throws(ExportError) in try lame.flush(into: output) }
                bytes += encoded.prefix(count)
            }
            if state.resampler != nil {
                Self.appendLittleEndian(state.resampler!.finish(), to: &bytes)
            }
            return bytes
        }
        if !bytes.isEmpty { continuation.yield(bytes) }
        continuation.finish()
    }

    private static func appendLittleEndian(_ samples: [Int16], to bytes: inout [UInt8]) {
        #if _endian(little)
        samples.withUnsafeBytes { bytes.append(contentsOf: $0) }
        #else
        bytes.reserveCapacity(bytes.count + samples.count * 2)
        for sample in samples {
            let value = UInt16(bitPattern: sample)
            bytes.append(UInt8(truncatingIfNeeded: value))
            bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        }
        #endif
    }

    public func cancel() {
        state.withLock { $0.isFinished = true }
        continuation.finish()
    }
}
