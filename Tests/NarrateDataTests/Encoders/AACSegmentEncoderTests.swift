import Foundation
import Testing

@testable import NarrateData

@Suite struct AACSegmentEncoderTests {
    let folder: TestFolder

    init() throws {
        folder = try TestFolder()
    }

    /// A rising tone (a harder signal than a steady one), `count` samples at 22,050 Hz.
    static func chirp(_ count: Int) -> [Int16] {
        (0..<count).map { index in
            let time = Double(index) / 22_050
            return Int16(12_000 * sin(2 * .pi * (200 + 400 * time) * time))
        }
    }

    /// Signal-to-noise ratio of `decoded` against `original` over `range`, in dB.
    static func snr(_ original: [Int16], _ decoded: [Int16], _ range: Range<Int>) -> Double {
        var signal = 0.0, noise = 0.0
        for index in range {
            let a = Double(original[index]), b = Double(decoded[index])
            signal += a * a
            noise += (a - b) * (a - b)
        }
        return 10 * log10(signal / max(noise, 1e-9))
    }

    @Test("segments encoded apart join without a gap: the stream decodes from sample 0, as long as the PCM (to the frame), and as clean around each join as elsewhere")
    func gaplessJoins() throws {
        // Given: five segments of 16 frames, fed in odd pieces.
        let pcm = Self.chirp(75_000)
        let ffmpeg = try Tool.path(of: "ffmpeg")
        let destination = folder.file("book.m4b")
        let sut = AACSegmentEncoder(destination: destination, sampleRate: 22_050, ffmpeg: ffmpeg, bitrate: 64, parallelism: 2, segmentSamples: 16 * 1_024)
        for start in stride(from: 0, to: pcm.count, by: 7_001) { try sut.append(Array(pcm[start..<min(start + 7_001, pcm.count)])) }

        // When
        let joined = try AtomicFile(destination: folder.file("joined.aac"))
        try sut.finish(into: joined)
        try joined.commit()
        let raw = folder.file("decoded.pcm")
        let decode = try Tool.run("ffmpeg", ["-v", "error", "-f", "aac", "-i", folder.file("joined.aac"), "-f", "s16le", "-ac", "1", "-y", raw])
        try #require(decode.status == 0, "\(decode.standardError)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: raw))
        let decoded = bytes.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }

        // Then
        #expect(decoded.count == (pcm.count + 1_023) / 1_024 * 1_024)
        let overall = Self.snr(pcm, decoded, 0..<pcm.count)
        #expect(overall > 15, "SNR \(overall) dB")
        for join in stride(from: 16 * 1_024, to: pcm.count, by: 16 * 1_024) {
            let around = Self.snr(pcm, decoded, (join - 1_024)..<(join + 1_024))
            #expect(around > overall - 3, "SNR \(around) dB around the join at \(join), \(overall) dB overall")
        }
        // No segment file is left beside the destination.
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".seg") }
        #expect(left.isEmpty)
    }
}
