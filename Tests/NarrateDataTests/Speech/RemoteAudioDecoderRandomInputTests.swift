import Foundation
import NarrateDomain
import Testing

@testable import NarrateData

/// What a speech API answers is input like any other: the decoder takes anything, mangled or
/// not, and either gives audio no longer than the body allows or says what is wrong.
@Suite struct RemoteAudioDecoderRandomInputTests {
    static let types = [nil, "audio/wav", "audio/pcm", "audio/pcm; rate=8000", "audio/L16; rate=48000; channels=2", "audio/mpeg", "audio/mp3", "text/html", "application/json"]

    static func mp3() throws -> [UInt8] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("random-\(UUID().uuidString).mp3").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try MP3Writer(path: path, sampleRate: 22_050, metadata: .init(title: "t", artist: "", album: "", trackNumber: 1, trackCount: 1))
        try writer.append(.init(sampleRate: 22_050, samples: (0..<22_050).map { Int16(($0 % 50) * 300) }))
        try writer.finish()
        return Array(try #require(FileManager.default.contents(atPath: path)))
    }

    @Test("3,000 random, cut and mangled bodies: each decodes or fails with a reason, never more samples than its bytes hold")
    func randomBodies() throws {
        var generator = SystemRandomNumberGenerator()
        let seeds = [FaultyHTTPStub.wavBytes((0..<500).map { Int16($0) }, rate: 22_050), try Self.mp3(), Array(repeating: 0x11, count: 400)]
        for round in 0..<3_000 {
            var bytes: [UInt8]
            if round % 4 == 0 {
                bytes = (0..<Int.random(in: 0...300, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            } else {
                bytes = seeds[round % seeds.count]
                if Bool.random(using: &generator) { bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &generator))) }
                for _ in 0..<Int.random(in: 0...6, using: &generator) where !bytes.isEmpty {
                    bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                }
            }
            let type = Self.types.randomElement(using: &generator)!
            do {
                let decoded = try RemoteAudioDecoder.decode(bytes, contentType: type)
                #expect(decoded.sampleRate >= 8_000 && decoded.sampleRate <= 192_000)
                // PCM holds at most a sample per two bytes; an MP3 frame of a few bytes can hold 1,152.
                #expect(decoded.samples.count <= max(bytes.count / 2, bytes.count * 1_152))
            } catch {
                #expect(!error.description.isEmpty)
            }
        }
    }
}
