import CLame
import NarrateDomain

/// One LAME encoder handle: configured in `init`, closed in `deinit`. Every LAME status code
/// goes through `validate(_:_:)`.
///
/// LAME writes no tag (`write_id3tag_automatic` is off): `MP3Writer` writes its own ID3v2 tag
/// (`ID3v2Tag`) first, so it knows where the first audio frame — the placeholder for the
/// LAME/Xing info frame — starts.
final class LameEncoder: @unchecked Sendable {
    /// Sample rates an MP3 stream can hold (MPEG-1, MPEG-2 and MPEG-2.5).
    static let sampleRates: Set<Int> = [8_000, 11_025, 12_000, 16_000, 22_050, 24_000, 32_000, 44_100, 48_000]

    private let flags: OpaquePointer

    /// - Parameters:
    ///   - sampleRate: the PCM's rate, also the MP3's (no resampling).
    ///   - bitrate: constant bitrate in kbps; LAME rounds to the nearest one the MPEG version allows.
    ///   - quality: LAME's algorithm quality, 0 (best, slowest) … 9.
    /// - Throws: `ExportError.sampleRateUnsupported` for a rate MP3 cannot hold,
    ///   `.encoderFailed` for a setting LAME refuses.
    init(sampleRate: Int, bitrate: Int, quality: Int, writesInfoFrame: Bool = true) throws(ExportError) {
        guard Self.sampleRates.contains(sampleRate) else {
            throw .sampleRateUnsupported(format: "MP3", sampleRate: sampleRate, supported: Self.sampleRates.sorted())
        }
        guard (8...320).contains(bitrate) else {
            throw .encoderFailed(format: "MP3", reason: "\(bitrate) kbps is not an MP3 bitrate (8 to 320 kbps)")
        }
        guard let flags = lame_init() else {
            throw .encoderFailed(format: "MP3", reason: "LAME could not allocate an encoder (out of memory)")
        }
        self.flags = flags
        narrate_lame_silence(flags)
        try validate(lame_set_num_channels(flags, 1), "setting one channel")
        try validate(lame_set_in_samplerate(flags, Int32(sampleRate)), "setting the input rate to \(sampleRate) Hz")
        try validate(lame_set_out_samplerate(flags, Int32(sampleRate)), "setting the output rate to \(sampleRate) Hz")
        try validate(lame_set_mode(flags, MONO), "choosing mono")
        try validate(lame_set_VBR(flags, vbr_off), "choosing a constant bitrate")
        try validate(lame_set_brate(flags, Int32(bitrate)), "setting the bitrate to \(bitrate) kbps")
        try validate(lame_set_quality(flags, Int32(quality)), "setting the quality to \(quality)")
        try validate(lame_set_bWriteVbrTag(flags, writesInfoFrame ? 1 : 0), "asking for the info frame")
        lame_set_write_id3tag_automatic(flags, 0)
        try validate(lame_init_params(flags), "starting the encoder at \(sampleRate) Hz, \(bitrate) kbps")
    }

    deinit {
        lame_close(flags)
    }

    /// Encodes `samples` into `output`, which must hold `outputCapacity(for:)` bytes.
    /// - Returns: the number of MP3 bytes written (LAME buffers, so it can be 0).
    func encode(_ samples: UnsafeBufferPointer<Int16>, into output: UnsafeMutableBufferPointer<UInt8>) throws(ExportError) -> Int {
        // Mono: LAME reads only the left channel.
        let count = lame_encode_buffer(
            flags, samples.baseAddress, samples.baseAddress, Int32(samples.count),
            output.baseAddress, Int32(output.count)
        )
        try validate(count, "encoding \(samples.count) samples")
        return Int(count)
    }

    /// Encodes the buffered samples (padding the last frame) into `output` (at least 7200 bytes).
    func flush(into output: UnsafeMutableBufferPointer<UInt8>) throws(ExportError) -> Int {
        let count = lame_encode_flush(flags, output.baseAddress, Int32(output.count))
        try validate(count, "flushing the last frames")
        return Int(count)
    }

    /// The final LAME/Xing info frame (frame count, byte count, encoder delay and padding), which
    /// replaces the placeholder frame at the start of the audio. Empty when LAME made none.
    func infoFrame() -> [UInt8] {
        let size = lame_get_lametag_frame(flags, nil, 0)
        guard size > 0 else { return [] }
        var frame = [UInt8](repeating: 0, count: size)
        let written = frame.withUnsafeMutableBufferPointer { lame_get_lametag_frame(flags, $0.baseAddress, size) }
        return written == size ? frame : []
    }

    /// The worst-case MP3 size for `sampleCount` samples, from lame.h: 1.25 × n + 7200 bytes.
    static func outputCapacity(for sampleCount: Int) -> Int {
        sampleCount + (sampleCount + 3) / 4 + 7_200
    }

    // MARK: - Private

    /// Turns a negative LAME status into `ExportError.encoderFailed`, naming the step.
    private func validate(_ status: Int32, _ step: String) throws(ExportError) {
        guard status < 0 else { return }
        throw .encoderFailed(format: "MP3", reason: "LAME failed \(step): \(Self.describe(status))")
    }

    private static func describe(_ status: Int32) -> String {
        switch status {
        case -1: "generic error (code -1)"
        case -2, -10: "out of memory (code \(status))"
        case -3: "the encoder was not started (code -3)"
        case -4: "psychoacoustic problem (code -4)"
        case -11: "bad bitrate (code -11)"
        case -12: "bad sample rate (code -12)"
        case -13: "internal error (code -13)"
        default: "code \(status)"
        }
    }
}
