import Foundation
@testable import NarrateData
import NarrateDomain
import Testing

@Suite struct MP3WriterTests {
    typealias Fixtures = EncoderFixtures

    let folder: TestFolder
    let destination: String
    let audio = EncoderFixtures.sine(seconds: 3.5)

    init() throws {
        folder = try TestFolder()
        destination = folder.file("02 Loomings.mp3")
    }

    @Test("a streamed sine becomes a mono MP3 at the PCM's rate that lasts as long as the PCM")
    func encodesSine() throws {
        // Given
        // ffprobe 5.1 counts LAME's delay and padding (about 0.05 s) in the duration, so the
        // 1% check needs more than a few seconds; the decoded sample count below is exact.
        let audio = Fixtures.sine(seconds: 8)
        let sut = try MP3Writer(path: destination, sampleRate: Fixtures.sampleRate, metadata: Fixtures.metadata())

        // When
        for piece in Fixtures.pieces(of: audio, seconds: 0.7) { try sut.append(piece) }
        try sut.finish()

        // Then
        let probe = try MediaProbe.of(destination)
        let stream = try #require(probe.audio)
        #expect(stream.codec_name == "mp3")
        #expect(stream.sample_rate == "22050")
        #expect(stream.channels == 1)
        #expect(stream.bit_rate == "56000")
        #expect(abs(probe.duration - audio.duration) <= audio.duration * 0.01, "MP3 lasts \(probe.duration) s, PCM \(audio.duration) s")
        #expect(try MediaProbe.decodingProblem(destination) == nil)
    }

    @Test("thanks to the info frame, a decoder trims LAME's delay and padding to the exact sample count")
    func gapless() throws {
        // Given
        let sut = try MP3Writer(path: destination, sampleRate: Fixtures.sampleRate, metadata: Fixtures.metadata())
        try sut.append(audio)

        // When
        try sut.finish()

        // Then
        #expect(try MediaProbe.decodedSampleCount(destination) == audio.samples.count)
    }

    @Test("the ID3v2 tag carries title, artist, album, track n/total and year, accents and all")
    func tags() throws {
        // Given
        let metadata = Fixtures.metadata()
        let sut = try MP3Writer(path: destination, sampleRate: Fixtures.sampleRate, metadata: metadata)

        // When
        try sut.append(audio)
        try sut.finish()

        // Then
        let probe = try MediaProbe.of(destination)
        #expect(probe.tag("title") == metadata.title)
        #expect(probe.tag("artist") == "Herman Melville")
        #expect(probe.tag("album") == "Moby-Dick; or, The Whale")
        #expect(probe.tag("track") == "2/5")
        #expect(probe.tag("date") == "1851")
    }

    @Test("a JPEG cover becomes an attached picture")
    func cover() throws {
        // Given
        let cover = try Fixtures.cover("jpg", in: folder)
        let sut = try MP3Writer(path: destination, sampleRate: Fixtures.sampleRate, metadata: Fixtures.metadata(cover: cover))

        // When
        try sut.append(audio)
        try sut.finish()

        // Then
        let probe = try MediaProbe.of(destination)
        let picture = try #require(probe.streams.first { $0.codec_type == "video" })
        #expect(picture.codec_name == "mjpeg")
        #expect(picture.disposition?["attached_pic"] == 1)
        #expect(try MediaProbe.decodingProblem(destination) == nil)
    }

    @Test("a cover that is not JPEG or PNG is left out, and the file is still written")
    func unsupportedCover() throws {
        // Given
        let gif = BookCover(mediaType: "image/gif", data: Array("GIF89a".utf8) + [UInt8](repeating: 0, count: 20))
        let sut = try MP3Writer(path: destination, sampleRate: Fixtures.sampleRate, metadata: Fixtures.metadata(cover: gif))

        // When
        try sut.append(audio)
        try sut.finish()

        // Then
        let probe = try MediaProbe.of(destination)
        #expect(!probe.streams.contains { $0.codec_type == "video" })
        #expect(probe.tag("title") != nil)
    }

    @Test("finish writes the LAME info frame, with the real frame count, right after the ID3v2 tag")
    func infoFrame() throws {
        // Given
        let sut = try MP3Writer(path: destination, sampleRate: Fixtures.sampleRate, metadata: Fixtures.metadata())
        try sut.append(audio)

        // When
        try sut.finish()

        // Then
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: destination)))
        #expect(Array(bytes[0..<3]) == Array("ID3".utf8))
        // The ID3v2 size is four 7-bit bytes, after a 10-byte header.
        let tagSize = bytes[6..<10].reduce(0) { $0 << 7 | Int($1) } + 10
        #expect(bytes[tagSize] == 0xFF && bytes[tagSize + 1] & 0xE0 == 0xE0, "an MPEG frame starts after the tag")
        let frame = Array(bytes[tagSize..<min(tagSize + 200, bytes.count)])
        let info = try #require(frame.firstRange(of: Array("Info".utf8)), "the first frame is a LAME info frame")
        #expect(frame.firstRange(of: Array("LAME".utf8)) != nil)
        // Flags (4 bytes, bit 0 = frame count present), then the frame count, big-endian.
        #expect(frame[info.upperBound + 3] & 1 == 1)
        let frames = frame[(info.upperBound + 4)..<(info.upperBound + 8)].reduce(0) { $0 << 8 | Int($1) }
        let expected = audio.samples.count / 576  // MPEG-2 layer III: 576 samples a frame
        #expect(frames >= expected && frames <= expected + 4, "info frame counts \(frames) frames")
    }

    @Test("nothing is at the destination before finish, only a hidden temporary file beside it")
    func nothingBeforeFinish() throws {
        // Given
        let sut = try MP3Writer(path: destination, sampleRate: Fixtures.sampleRate, metadata: Fixtures.metadata())

        // When
        try sut.append(audio)

        // Then
        #expect(!FileManager.default.fileExists(atPath: destination))
        let names = try folder.names()
        #expect(names.count == 1)
        #expect(names.allSatisfy { $0.hasPrefix(".") && $0.contains(TemporaryFileName.marker) })
        sut.discard()
    }

    @Test("discard leaves neither the file nor a temporary file")
    func discard() throws {
        // Given
        let sut = try MP3Writer(path: destination, sampleRate: Fixtures.sampleRate, metadata: Fixtures.metadata())
        try sut.append(audio)

        // When
        sut.discard()

        // Then
        #expect(try folder.names().isEmpty)
        #expect(throws: ExportError.self) { try sut.finish() }
    }

    @Test("a writer dropped without finish removes its temporary file")
    func dropped() throws {
        // Given
        var sut: MP3Writer? = try MP3Writer(path: destination, sampleRate: Fixtures.sampleRate, metadata: Fixtures.metadata())
        try sut?.append(audio)

        // When
        sut = nil

        // Then
        #expect(try folder.names().isEmpty)
    }

    @Test("a missing folder fails with outputFailed naming the destination")
    func missingFolder() throws {
        // Given
        let path = folder.file("missing/out.mp3")

        // When / Then
        #expect(throws: ExportError.outputFailed(OutputError(path: path, cause: .missingFolder))) {
            try MP3Writer(path: path, sampleRate: Fixtures.sampleRate, metadata: Fixtures.metadata())
        }
    }

    @Test("a sample rate MP3 cannot hold fails with sampleRateUnsupported before any file is made")
    func unsupportedRate() throws {
        // Given
        let rate = 20_000

        // When
        let error = #expect(throws: ExportError.self) {
            try MP3Writer(path: destination, sampleRate: rate, metadata: Fixtures.metadata())
        }

        // Then
        #expect(error == .sampleRateUnsupported(format: "MP3", sampleRate: rate, supported: [8_000, 11_025, 12_000, 16_000, 22_050, 24_000, 32_000, 44_100, 48_000]))
        #expect(error?.description.contains("MP3 cannot hold audio at 20000 Hz") == true)
        #expect(try folder.names().isEmpty)
    }

    @Test("audio at another rate is refused")
    func otherRate() throws {
        // Given
        let sut = try MP3Writer(path: destination, sampleRate: Fixtures.sampleRate, metadata: Fixtures.metadata())

        // When
        #expect(throws: ExportError.encoderFailed(format: "MP3", reason: "audio at 16000 Hz cannot follow audio at 22050 Hz in one file")) {
            try sut.append(Fixtures.sine(seconds: 0.1, sampleRate: 16_000))
        }

        // Then
        sut.discard()
        #expect(try folder.names().isEmpty)
    }

    @Test("below the info frame's minimum bitrate the file is still written, without the info frame")
    func lowBitrate() throws {
        // Given
        let low = folder.file("low.mp3")
        let sut = try MP3Writer(path: low, sampleRate: Fixtures.sampleRate, metadata: Fixtures.metadata(), bitrate: 48)

        // When
        try sut.append(audio)
        try sut.finish()

        // Then
        let probe = try MediaProbe.of(low)
        #expect(probe.audio?.bit_rate == "48000")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: low)))
        #expect(bytes.firstRange(of: Array("Info".utf8)) == nil)
        // Without it, the duration includes LAME's delay and padding (about 0.05 s).
        #expect(abs(probe.duration - audio.duration) <= 0.1)
        #expect(try MediaProbe.decodingProblem(low) == nil)
    }
}
