import Foundation
import NarrateDomain
import Testing

/// PCM, metadata and folders for the encoder tests.
enum EncoderFixtures {
    static let sampleRate = 22_050

    /// A 440 Hz sine at half scale, `seconds` long.
    static func sine(seconds: Double, sampleRate: Int = sampleRate) -> SpeechAudio {
        let count = Int(seconds * Double(sampleRate))
        let step = 2 * Double.pi * 440 / Double(sampleRate)
        let samples = (0..<count).map { Int16(16_000 * sin(Double($0) * step)) }
        return SpeechAudio(sampleRate: sampleRate, samples: samples)
    }

    /// `audio` cut into pieces of `seconds`, as a narration arrives chunk by chunk.
    static func pieces(of audio: SpeechAudio, seconds: Double) -> [SpeechAudio] {
        let size = Int(seconds * Double(audio.sampleRate))
        return stride(from: 0, to: audio.samples.count, by: size).map { start in
            SpeechAudio(sampleRate: audio.sampleRate, samples: Array(audio.samples[start..<min(start + size, audio.samples.count)]))
        }
    }

    static func metadata(
        title: String = "Loomings — ça commence, 東京",
        cover: BookCover? = nil,
        chapters: [AudioFileMetadata.ChapterMarker] = []
    ) -> AudioFileMetadata {
        AudioFileMetadata(
            title: title, artist: "Herman Melville", album: "Moby-Dick; or, The Whale",
            trackNumber: 2, trackCount: 5, year: "1851", language: "en", cover: cover, chapters: chapters
        )
    }

    /// A small real image made by ffmpeg (`jpg` or `png`).
    static func cover(_ fileExtension: String, in folder: TestFolder) throws -> BookCover {
        let path = folder.file("made-cover.\(fileExtension)")
        let result = try Tool.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=c=red:s=32x32", "-frames:v", "1", "-y", path])
        try #require(result.status == 0, "ffmpeg could not make a cover: \(result.standardError)")
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        try FileManager.default.removeItem(atPath: path)
        return BookCover(mediaType: fileExtension == "png" ? "image/png" : "image/jpeg", data: data)
    }
}

/// A fresh folder under /tmp, removed with everything in it when the test ends.
final class TestFolder {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "narrate-encoder-tests-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    func file(_ name: String) -> String {
        "\(path)/\(name)"
    }

    /// Writes a script through a close-on-exec descriptor: a descriptor inherited by a process
    /// another test spawns at that moment would make running the script fail with ETXTBSY.
    static func writeExecutable(_ text: String, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
        try #require(descriptor >= 0, "could not create \(path)")
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        try #require(written == bytes.count, "could not write \(path)")
    }

    /// Every name in the folder, hidden ones (temporary files) included.
    func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }
}
