import Foundation
import Testing

/// What ffprobe (Debian's ffmpeg package) says about an audio file.
struct MediaInfo {
    var duration: Double
    var codec: String
    var channels: Int
    var sampleRate: Int
    var tags: [String: String]
    var chapters: [(title: String, start: Double)]
    var hasCover: Bool
}

enum MediaProbe {
    static func probe(_ path: String) async throws -> MediaInfo {
        let ffprobe = "/usr/bin/ffprobe"
        try #require(FileManager.default.isExecutableFile(atPath: ffprobe), "ffprobe is not installed: apt-get install ffmpeg (scripts/install-deps.sh does)")
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        let result = try await NarrateProcess.run(ffprobe, ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", "-show_chapters", path], in: folder)
        try #require(result.status == 0, "ffprobe failed on \(path): \(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let format = json["format"] as? [String: Any] ?? [:]
        let streams = json["streams"] as? [[String: Any]] ?? []
        let audio = try #require(streams.first { $0["codec_type"] as? String == "audio" }, "no audio stream in \(path)")
        var tags: [String: String] = [:]
        for (key, value) in (format["tags"] as? [String: String] ?? [:]) { tags[key.lowercased()] = value }
        let chapters = (json["chapters"] as? [[String: Any]] ?? []).map { chapter in
            ((chapter["tags"] as? [String: String])?["title"] ?? "", Double(chapter["start_time"] as? String ?? "0") ?? 0)
        }
        return MediaInfo(
            duration: Double(format["duration"] as? String ?? "0") ?? 0,
            codec: audio["codec_name"] as? String ?? "",
            channels: audio["channels"] as? Int ?? 0,
            sampleRate: Int(audio["sample_rate"] as? String ?? "0") ?? 0,
            tags: tags,
            chapters: chapters,
            hasCover: streams.contains { $0["codec_type"] as? String == "video" }
        )
    }

    /// Decodes the whole file; true when ffmpeg reports no error.
    static func decodes(_ path: String) async throws -> Bool {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        let result = try await NarrateProcess.run("/usr/bin/ffmpeg", ["-v", "error", "-i", path, "-f", "null", "-"], in: folder)
        return result.status == 0 && result.stderr.isEmpty
    }

    /// The end times of the cues of a WebVTT or SRT file, in seconds.
    static func cueEnds(_ path: String) throws -> [Double] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return text.split(separator: "\n").compactMap { line -> Double? in
            guard let arrow = line.range(of: " --> ") else { return nil }
            return seconds(String(line[arrow.upperBound...]).split(separator: " ").first.map(String.init) ?? "")
        }
    }

    static func seconds(_ stamp: String) -> Double? {
        let parts = stamp.replacingOccurrences(of: ",", with: ".").split(separator: ":")
        guard parts.count == 3, let h = Double(parts[0]), let m = Double(parts[1]), let s = Double(parts[2]) else { return nil }
        return h * 3600 + m * 60 + s
    }
}
