import CLame
import Foundation
import NarrateDomain

/// Turns what a speech API answered into 16-bit mono PCM: a WAV file (any rate, 16-bit, mono
/// or stereo, sizes exact or left open as streamed), raw PCM (`audio/pcm`, 24 kHz unless the
/// type says `rate=`), or MP3 (decoded by LAME's decoder). Anything else is an error: a body that
/// is not audio is never cached.
enum RemoteAudioDecoder {
    enum Failure: Error, Equatable, CustomStringConvertible {
        case notAudio(contentType: String)
        case malformed(String)
        case truncated(String)
        case empty

        var description: String {
            switch self {
            case let .notAudio(type): "the API answered \(type.isEmpty ? "something without a content type" : type), not audio"
            case let .malformed(what): "the audio does not decode (\(what))"
            case let .truncated(what): "the audio is cut short (\(what))"
            case .empty: "the API answered no audio"
            }
        }
    }

    /// OpenAI's raw PCM rate.
    static let pcmSampleRate = 24_000

    static func decode(_ bytes: [UInt8], contentType: String?) throws(Failure) -> (sampleRate: Int, samples: [Int16]) {
        let type = (contentType ?? "").lowercased()
        let mediaType = type.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard !bytes.isEmpty else { throw .empty }
        let decoded: (sampleRate: Int, samples: [Int16])
        if bytes.starts(with: Array("RIFF".utf8)) {
            decoded = try wav(bytes)
        } else if mediaType == "audio/pcm" || mediaType == "audio/l16" || mediaType == "audio/x-pcm" {
            decoded = try pcm(bytes, type: type, bigEndian: mediaType == "audio/l16")
        } else if mediaType == "audio/mpeg" || mediaType == "audio/mp3" || bytes.starts(with: Array("ID3".utf8)) || (bytes.count > 1 && bytes[0] == 0xFF && bytes[1] & 0xE0 == 0xE0 && mediaType.hasPrefix("audio/")) {
            decoded = try mp3(bytes)
        } else {
            throw .notAudio(contentType: mediaType)
        }
        guard !decoded.samples.isEmpty else { throw .empty }
        return decoded
    }

    // MARK: - WAV

    static func wav(_ bytes: [UInt8]) throws(Failure) -> (sampleRate: Int, samples: [Int16]) {
        guard bytes.count >= 12, bytes[8..<12].elementsEqual("WAVE".utf8) else { throw .malformed("a RIFF file that is not WAVE") }
        var offset = 12
        var format: (channels: Int, rate: Int, bits: Int, tag: Int)?
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = Int(le32(bytes, offset + 4))
            let body = offset + 8
            if id == "fmt " {
                guard size >= 16, body + 16 <= bytes.count else { throw .malformed("a short fmt chunk") }
                format = (Int(le16(bytes, body + 2)), Int(le32(bytes, body + 4)), Int(le16(bytes, body + 14)), Int(le16(bytes, body)))
            } else if id == "data" {
                guard let format else { throw .malformed("data before fmt") }
                guard format.tag == 1 || format.tag == 0xFFFE, format.bits == 16 else {
                    throw .malformed("\(format.bits)-bit audio in format \(format.tag); 16-bit PCM is read")
                }
                guard (1...2).contains(format.channels), (8_000...192_000).contains(format.rate) else {
                    throw .malformed("\(format.channels) channels at \(format.rate) Hz")
                }
                let available = bytes.count - body
                // Streamed WAVs leave the size open (0 or 0xFFFFFFFF): the data runs to the end.
                let open = size == 0 || size == 0xFFFF_FFFF || size == 0x7FFF_FFFF
                if !open, size > available { throw .truncated("\(available) of \(size) data bytes") }
                let count = open ? available : size
                return (format.rate, samples(bytes, from: body, byteCount: count, channels: format.channels, bigEndian: false))
            }
            guard size >= 0, body + size <= bytes.count || id == "data" else { throw .truncated("a \(id.trimmingCharacters(in: .whitespaces)) chunk") }
            offset = body + size + (size & 1)
        }
        throw .truncated("no data chunk")
    }

    // MARK: - Raw PCM

    static func pcm(_ bytes: [UInt8], type: String, bigEndian: Bool) throws(Failure) -> (sampleRate: Int, samples: [Int16]) {
        var rate = pcmSampleRate
        var channels = 1
        for parameter in type.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, let value = Int(pair[1]) else { continue }
            if pair[0] == "rate" { rate = value }
            if pair[0] == "channels" { channels = value }
        }
        guard (8_000...192_000).contains(rate), (1...2).contains(channels) else { throw .malformed("raw PCM at \(rate) Hz, \(channels) channels") }
        return (rate, samples(bytes, from: 0, byteCount: bytes.count, channels: channels, bigEndian: bigEndian))
    }

    // MARK: - MP3

    static func mp3(_ bytes: [UInt8]) throws(Failure) -> (sampleRate: Int, samples: [Int16]) {
        var data = bytes
        // An ID3v2 tag before the frames: its size is four 7-bit bytes.
        if data.count >= 10, data.starts(with: Array("ID3".utf8)) {
            let size = (Int(data[6] & 0x7F) << 21) | (Int(data[7] & 0x7F) << 14) | (Int(data[8] & 0x7F) << 7) | Int(data[9] & 0x7F)
            let skip = 10 + size + (data[5] & 0x10 != 0 ? 10 : 0)
            guard skip < data.count else { throw .truncated("an MP3 that is only a tag") }
            data.removeFirst(skip)
        }
        guard let decoder = hip_decode_init() else { throw .malformed("the MP3 decoder could not start") }
        defer { hip_decode_exit(decoder) }
        narrate_hip_silence(decoder)
        var left = [Int16](repeating: 0, count: 8192)
        var right = [Int16](repeating: 0, count: 8192)
        var header = mp3data_struct()
        var output: [Int16] = []
        var rate = 0
        var input = data
        var first = true
        var frames = 0
        // The whole body goes in with the first call; later calls decode what is buffered. A
        // frame may give no samples (LAME's Info frame), so only several empty answers in a row
        // mean the end.
        var empty = 0
        while empty < 4 {
            let produced: Int32 = input.withUnsafeMutableBufferPointer { buffer in
                hip_decode1_headers(decoder, buffer.baseAddress, first ? buffer.count : 0, &left, &right, &header)
            }
            first = false
            if produced < 0 { throw .malformed("a broken MP3 frame") }
            if header.header_parsed == 1 { rate = Int(header.samplerate) }
            if produced == 0 {
                empty += 1
                continue
            }
            empty = 0
            frames += 1
            let count = Int(produced)
            if header.stereo == 2 {
                for index in 0..<count { output.append(Int16((Int(left[index]) + Int(right[index])) / 2)) }
            } else {
                output.append(contentsOf: left[0..<count])
            }
            if frames > 10_000_000 { throw .malformed("too many MP3 frames") }
        }
        input.removeAll()
        guard rate > 0 else { throw .malformed("no MP3 frame") }
        return (rate, output)
    }

    // MARK: - Helpers

    private static func samples(_ bytes: [UInt8], from start: Int, byteCount: Int, channels: Int, bigEndian: Bool) -> [Int16] {
        let frameBytes = 2 * channels
        let frames = byteCount / frameBytes
        var samples = [Int16](repeating: 0, count: frames)
        for frame in 0..<frames {
            var sum = 0
            for channel in 0..<channels {
                let index = start + frame * frameBytes + channel * 2
                let raw = bigEndian ? UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]) : UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8
                sum += Int(Int16(bitPattern: raw))
            }
            samples[frame] = Int16(sum / channels)
        }
        return samples
    }

    private static func le16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    private static func le32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }
}
