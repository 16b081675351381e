import Foundation
@testable import NarrateData
import NarrateDomain
import Testing

@Suite struct M4BWriterTests {
    typealias Fixtures = EncoderFixtures

    let folder: TestFolder
    let destination: String
    let audio = EncoderFixtures.sine(seconds: 6)
    let chapters = [
        AudioFileMetadata.ChapterMarker(title: "Loomings", startSample: 0),
        AudioFileMetadata.ChapterMarker(title: "The Carpet-Bag; a=b #1", startSample: 2 * 22_050),
        AudioFileMetadata.ChapterMarker(title: "The Spouter-Inn", startSample: 9 * 22_050 / 2),
    ]

    init() throws {
        folder = try TestFolder()
        destination = folder.file("Moby-Dick.m4b")
    }

    @Test("a streamed sine becomes mono AAC at the PCM's rate that lasts as long as the PCM")
    func encodesSine() throws {
        // Given
        let sut = try M4BWriter(path: destination, sampleRate: Fixtures.sampleRate, metadata: Fixtures.metadata())

        // When
        for piece in Fixtures.pieces(of: audio, seconds: 0.7) { try sut.append(piece) }
        try sut.finish()

        // Then
        let probe = try MediaProbe.of(destination)
        let stream = try #require(probe.audio)
        #expect(stream.codec_name == "aac")
        #expect(stream.sample_rate == "22050")
        #expect(stream.channels == 1)
        #expect(abs(probe.duration - audio.duration) <= audio.duration * 0.01, "M4B lasts \(probe.duration) s, PCM \(audio.duration) s")
        #expect(try MediaProbe.decodingProblem(destination) == nil)
    }

    @Test("players file it as an audiobook: brand M4B, media kind 2 (stik), and a sample entry that says mono")
    func audiobookKind() throws {
        // Given
        let sut = try M4BWriter(path: destination, sampleRate: Fixtures.sampleRate, metadata: Fixtures.metadata())

        // When
        try sut.append(audio)
        try sut.finish()

        // Then
        let bytes = try #require(FileManager.default.contents(atPath: destination))
        #expect(bytes[4..<12].elementsEqual("ftypM4B ".utf8))
        #expect(try MediaProbe.of(destination).tag("media_type") == "2")
        let mp4a = try #require(bytes.firstRange(of: Data("mp4a".utf8)))
        let channels = Int(bytes[mp4a.lowerBound - 4 + 24]) << 8 | Int(bytes[mp4a.lowerBound - 4 + 25])
        #expect(channels == 1)
    }

    @Test("the MP4 tags carry title, artist, album, track n/total and date, accents and all")
    func tags() throws {
        // Given
        let metadata = Fixtures.metadata()
        let sut = try M4BWriter(path: destination, sampleRate: Fixtures.sampleRate, metadata: metadata)

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

    @Test("chapters keep their titles and starts, and the last one ends with the audio")
    func chapterMarkers() throws {
        // Given
        let sut = try M4BWriter(path: destination, sampleRate: Fixtures.sampleRate, metadata: Fixtures.metadata(chapters: chapters))

        // When
        try sut.append(audio)
        try sut.finish()

        // Then
        let found = try #require(try MediaProbe.of(destination).chapters)
        #expect(found.map { $0.tags?["title"] } == chapters.map(\.title))
        for (chapter, marker) in zip(found, chapters) {
            let start = Double(marker.startSample) / Double(Fixtures.sampleRate)
            #expect(abs((Double(chapter.start_time) ?? -1) - start) <= 0.1, "\(marker.title) starts at \(chapter.start_time)")
        }
        #expect(abs((Double(found.last?.end_time ?? "") ?? -1) - audio.duration) <= 0.1)
        #expect(try MediaProbe.of(destination).duration <= audio.duration * 1.01)
    }

    @Test("a PNG cover becomes an attached picture")
    func cover() throws {
        // Given
        let cover = try Fixtures.cover("png", in: folder)
        let sut = try M4BWriter(path: destination, sampleRate: Fixtures.sampleRate, metadata: Fixtures.metadata(cover: cover, chapters: chapters))

        // When
        try sut.append(audio)
        try sut.finish()

        // Then
        let probe = try MediaProbe.of(destination)
        let picture = try #require(probe.streams.first { $0.codec_type == "video" })
        #expect(picture.codec_name == "png")
        #expect(picture.disposition?["attached_pic"] == 1)
        #expect(probe.chapters?.count == 3)
        #expect(try MediaProbe.decodingProblem(destination) == nil)
    }

    @Test("a JPEG cover becomes an attached picture")
    func jpegCover() throws {
        // Given
        let cover = try Fixtures.cover("jpg", in: folder)
        let sut = try M4BWriter(path: destination, sampleRate: Fixtures.sampleRate, metadata: Fixtures.metadata(cover: cover))

        // When
        try sut.append(audio)
        try sut.finish()

        // Then
        let picture = try #require(try MediaProbe.of(destination).streams.first { $0.codec_type == "video" })
        #expect(picture.codec_name == "mjpeg")
        #expect(picture.disposition?["attached_pic"] == 1)
    }

    @Test("nothing is at the destination before finish, and only the M4B is left after it")
    func nothingBeforeFinish() throws {
        // Given
        let sut = try M4BWriter(path: destination, sampleRate: Fixtures.sampleRate, metadata: Fixtures.metadata(chapters: chapters))

        // When
        try sut.append(audio)

        // Then
        #expect(!FileManager.default.fileExists(atPath: destination))
        #expect(try folder.names().allSatisfy { $0.hasPrefix(".") && $0.contains(TemporaryFileName.marker) })
        try sut.finish()
        #expect(try folder.names() == ["Moby-Dick.m4b"])
    }

    @Test("discard stops ffmpeg and leaves neither the file nor a temporary file")
    func discard() throws {
        // Given
        let sut = try M4BWriter(path: destination, sampleRate: Fixtures.sampleRate, metadata: Fixtures.metadata())
        try sut.append(audio)

        // When
        sut.discard()

        // Then
        #expect(try folder.names().isEmpty)
        #expect(throws: ExportError.self) { try sut.finish() }
    }

    @Test("a writer dropped without finish removes its temporary files")
    func dropped() throws {
        // Given
        var sut: M4BWriter? = try M4BWriter(path: destination, sampleRate: Fixtures.sampleRate, metadata: Fixtures.metadata())
        try sut?.append(audio)

        // When
        sut = nil

        // Then
        #expect(try folder.names().isEmpty)
    }

    @Test("a missing folder fails with outputFailed naming the destination")
    func missingFolder() throws {
        // Given
        let path = folder.file("missing/book.m4b")

        // When / Then
        #expect(throws: ExportError.outputFailed(OutputError(path: path, cause: .missingFolder))) {
            try M4BWriter(path: path, sampleRate: Fixtures.sampleRate, metadata: Fixtures.metadata())
        }
    }

    @Test("an ffmpeg path to no program fails with ffmpegMissing")
    func ffmpegMissing() throws {
        // Given
        let ffmpeg = folder.file("no-such-ffmpeg")

        // When / Then
        #expect(throws: ExportError.ffmpegMissing) {
            try M4BWriter(path: destination, sampleRate: Fixtures.sampleRate, metadata: Fixtures.metadata(), ffmpegPath: ffmpeg)
        }
        #expect(try folder.names().isEmpty)
    }

    @Test("an ffmpeg that fails gives encoderFailed with its last error line, and no file is left")
    func ffmpegFails() throws {
        // Given
        let script = folder.file("failing-ffmpeg")
        try TestFolder.writeExecutable(
            "#!/bin/sh\necho 'starting' >&2\necho 'pipe:0: Invalid data found when processing input' >&2\nexit 1\n", to: script
        )
        let destination = folder.file("out/book.m4b")
        try FileManager.default.createDirectory(atPath: folder.file("out"), withIntermediateDirectories: false)

        // When
        let error = #expect(throws: ExportError.self) {
            let sut = try M4BWriter(path: destination, sampleRate: Fixtures.sampleRate, metadata: Fixtures.metadata(), ffmpegPath: script)
            // Enough audio to fill the socket buffer, so a write meets the exited ffmpeg.
            for _ in 0..<10 { try sut.append(audio) }
            try sut.finish()
        }

        // Then
        #expect(error == .encoderFailed(format: "M4B", reason: "ffmpeg exited with status 1: pipe:0: Invalid data found when processing input"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("out")).isEmpty)
    }
}
