import Foundation
import Testing

/// Runs the Debian programs the encoder tests check files with (package `ffmpeg`).
/// A missing program fails the test with a message saying what to install; it never passes.
enum Tool {
    struct Missing: Error, CustomStringConvertible {
        let program: String
        var description: String {
            "\(program) is not installed, so the encoded files cannot be checked: install the Debian package ffmpeg (apt-get install ffmpeg)"
        }
    }

    struct Result {
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

    static func path(of program: String) throws -> String {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for folder in folders where FileManager.default.isExecutableFile(atPath: "\(folder)/\(program)") {
            return "\(folder)/\(program)"
        }
        throw Missing(program: program)
    }

    static func run(_ program: String, _ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try path(of: program))
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        // Files, not pipes: a full pipe would stall the program while we wait for it.
        let folder = try TestFolder()
        let outputPath = folder.file("stdout")
        let errorPath = folder.file("stderr")
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        let error = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        process.standardOutput = output
        process.standardError = error
        try process.run()
        process.waitUntilExit()
        try output.close()
        try error.close()
        return Result(
            status: process.terminationStatus,
            standardOutput: try String(contentsOfFile: outputPath, encoding: .utf8),
            standardError: try String(contentsOfFile: errorPath, encoding: .utf8)
        )
    }
}

/// What `ffprobe -show_format -show_streams -show_chapters -print_format json` says about a file.
struct MediaProbe: Decodable {
    struct Stream: Decodable {
        let codec_name: String?
        let codec_type: String?
        let sample_rate: String?
        let channels: Int?
        let bit_rate: String?
        let disposition: [String: Int]?
    }

    struct Format: Decodable {
        let duration: String?
        let tags: [String: String]?
    }

    struct Chapter: Decodable {
        let start_time: String
        let end_time: String
        let tags: [String: String]?
    }

    let streams: [Stream]
    let format: Format
    let chapters: [Chapter]?

    static func of(_ path: String) throws -> MediaProbe {
        let result = try Tool.run("ffprobe", ["-v", "error", "-show_format", "-show_streams", "-show_chapters", "-print_format", "json", path])
        try #require(result.status == 0, "ffprobe failed on \(path): \(result.standardError)")
        return try JSONDecoder().decode(MediaProbe.self, from: Data(result.standardOutput.utf8))
    }

    /// Decodes the whole file; `nil` when ffmpeg decodes it without a word, else what it said.
    static func decodingProblem(_ path: String) throws -> String? {
        let result = try Tool.run("ffmpeg", ["-v", "error", "-i", path, "-f", "null", "-"])
        let said = (result.standardOutput + result.standardError).trimmingCharacters(in: .whitespacesAndNewlines)
        return result.status == 0 && said.isEmpty ? nil : "status \(result.status): \(said)"
    }

    /// How many mono samples ffmpeg decodes from the file, after the trimming its gapless
    /// information (the LAME info frame, the MP4 edit list) asks for.
    static func decodedSampleCount(_ path: String) throws -> Int {
        let folder = try TestFolder()
        let pcm = folder.file("decoded.raw")
        let result = try Tool.run("ffmpeg", ["-v", "error", "-i", path, "-f", "s16le", "-ac", "1", pcm])
        try #require(result.status == 0, "ffmpeg could not decode \(path): \(result.standardError)")
        let size = try FileManager.default.attributesOfItem(atPath: pcm)[.size] as? Int
        return (size ?? 0) / 2
    }

    var audio: Stream? { streams.first { $0.codec_type == "audio" } }
    var duration: Double { format.duration.flatMap(Double.init) ?? 0 }

    /// A format tag, whatever case the container spells its key in.
    func tag(_ key: String) -> String? {
        format.tags?.first { $0.key.lowercased() == key }?.value
    }
}
