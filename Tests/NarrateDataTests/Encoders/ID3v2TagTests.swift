import Foundation
import NarrateDomain
import Testing

@testable import NarrateData

@Suite struct ID3v2TagTests {
    static let metadata = AudioFileMetadata(title: "Moby-Dick", artist: "Herman Melville", album: "Moby-Dick", trackNumber: 1, trackCount: 1, language: "en")

    /// The frames of a v2.3 tag: ID and body.
    static func frames(_ bytes: [UInt8]) -> [(id: String, body: [UInt8])] {
        var frames: [(String, [UInt8])] = []
        var offset = 10
        while offset + 10 <= bytes.count, bytes[offset] != 0 {
            let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = bytes[offset + 4..<offset + 8].reduce(0) { $0 << 8 | Int($1) }
            frames.append((id, Array(bytes[offset + 10..<offset + 10 + size])))
            offset += 10 + size
        }
        return frames
    }

    @Test("a v2.3 tag with UTF-16 text frames and the language as ISO 639-2")
    func textFrames() {
        let bytes = ID3v2Tag(metadata: Self.metadata).bytes()
        #expect(Array(bytes[0..<5]) == Array("ID3".utf8) + [3, 0])
        let frames = Self.frames(bytes)
        #expect(frames.map(\.id) == ["TIT2", "TPE1", "TALB", "TRCK", "TLAN"])
        #expect(frames[0].body.prefix(3) == [1, 0xFF, 0xFE])
        let eng: [UInt8] = [1, 0xFF, 0xFE, 0x65, 0, 0x6E, 0, 0x67, 0, 0, 0]
        #expect(frames[4].body == eng)
    }

    @Test("the cover is an APIC of picture type 3, Cover (front)")
    func coverFront() throws {
        var metadata = Self.metadata
        metadata.cover = BookCover(mediaType: "image/png", data: [0x89, 0x50, 0x4E, 0x47, 1, 2, 3])
        let apic = try #require(Self.frames(ID3v2Tag(metadata: metadata).bytes()).first { $0.id == "APIC" })
        let expected: [UInt8] = [0] + Array("image/png".utf8) + [0, 3, 0, 0x89, 0x50, 0x4E, 0x47, 1, 2, 3]
        #expect(apic.body == expected)
    }

    @Test("chapters: one ordered top-level CTOC and a CHAP per chapter with its times in ms and its title; the timed tag keeps the reserved size")
    func chapters() throws {
        // Given
        let reserved = ID3v2Tag(metadata: Self.metadata, chapterTitles: ["One", "Two", "Three"]).bytes()
        let markers = [AudioFileMetadata.ChapterMarker(title: "One", startSample: 0), .init(title: "Two", startSample: 22_050)]
        let timing = ID3v2Tag.chapters(markers, sampleRate: 22_050, totalSamples: 66_150)
        var timed = ID3v2Tag(metadata: Self.metadata, chapterTitles: timing.titles)
        timed.chapterTimes = timing.times

        // When
        let bytes = timed.bytes(paddedTo: reserved.count)

        // Then
        #expect(bytes.count == reserved.count)
        let frames = Self.frames(bytes)
        let toc = try #require(frames.first { $0.id == "CTOC" })
        let tocBody: [UInt8] = Array("toc".utf8) + [0, 0x03, 2] + Array("ch0".utf8) + [0] + Array("ch1".utf8) + [0]
        #expect(toc.body == tocBody)
        let chapters = frames.filter { $0.id == "CHAP" }
        #expect(chapters.count == 2)
        let second = chapters[1].body
        #expect(Array(second[0..<4]) == Array("ch1".utf8) + [0])
        let times: [UInt8] = ID3v2Tag.be32(1_000) + ID3v2Tag.be32(3_000) + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        #expect(Array(second[4..<20]) == times)
        #expect(Array(second[20..<24]) == Array("TIT2".utf8))
    }
}

@Suite struct AudiobookshelfMetadataTests {
    @Test("chapters run on the book's whole timeline: a file's own chapter starts, offset by the files before it")
    func chapters() {
        // Given
        let book = BookMetadata(title: "Moby-Dick", authors: ["Herman Melville"], language: "en", date: "1851-10-18")
        let files = [
            ExportedFile(number: 1, fileName: "1.mp3", title: "Loomings", subtitleFileName: nil, pageLabels: [], chapterTitles: ["Loomings"], duration: 100, sampleCount: 0, byteCount: 0, cacheKeys: [],
                         chapterStarts: [.init(title: "Loomings", seconds: 0)]),
            ExportedFile(number: 2, fileName: "2.mp3", title: "Two chapters", subtitleFileName: nil, pageLabels: [], chapterTitles: ["A", "B"], duration: 50, sampleCount: 0, byteCount: 0, cacheKeys: [],
                         chapterStarts: [.init(title: "A", seconds: 0), .init(title: "B", seconds: 20)]),
        ]

        // When
        let sut = AudiobookshelfMetadata(book: book, narrator: "eSpeak NG en-us", files: files)

        // Then
        #expect(sut.chapters == [
            .init(id: 0, start: 0, end: 100, title: "Loomings"),
            .init(id: 1, start: 100, end: 120, title: "A"),
            .init(id: 2, start: 120, end: 150, title: "B"),
        ])
        #expect(sut.publishedYear == "1851")
        #expect(sut.narrators == ["eSpeak NG en-us"])
    }
}
