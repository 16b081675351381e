import Foundation
import NarrateDomain

/// `manifest.json` of an export: the book, the voice, the settings, and for each file its
/// pages, chapters, duration and the cache keys of its audio. A re-run trusts a file only
/// when its entry here matches what it would write now.
public struct ExportManifest: Codable, Sendable, Equatable {
    public struct BookInfo: Codable, Sendable, Equatable {
        public var title: String
        public var authors: [String]
        public var language: String?
        public var identifier: String?
    }

    public struct Settings: Codable, Sendable, Equatable {
        public var split: ExportSplit
        public var format: ExportFormat
        public var subtitles: SubtitleFormat?
        public var selection: String
    }

    /// The engine that spoke, as its cache keys name it (never an API key), and how exactly
    /// its audio is timed: `words` (eSpeak NG's word events), or `sentences`, estimated from
    /// the audio's length (a remote API gives no timings), which is what the subtitles follow.
    public struct EngineInfo: Codable, Sendable, Equatable {
        public var id: String
        public var version: String
        public var timing: SpeechTiming
    }

    public var generator: String
    public var book: BookInfo
    public var voice: VoiceProfile
    public var settings: Settings
    /// True once every file of the export is written.
    public var complete: Bool
    public var files: [ExportedFile]
    /// Absent in manifests written before it was recorded.
    public var engine: EngineInfo?

    static let fileName = "manifest.json"

    static func read(from directory: String) -> ExportManifest? {
        guard let data = FileManager.default.contents(atPath: directory + "/" + fileName) else { return nil }
        return try? JSONDecoder().decode(ExportManifest.self, from: data)
    }

    /// Writes the manifest atomically, unless the file already says exactly this.
    func write(to directory: String) throws(ExportError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data: Data
        do { data = try encoder.encode(self) } catch { throw .outputFailed(OutputError(path: directory + "/" + Self.fileName, cause: .other("\(error)"))) }
        let path = directory + "/" + Self.fileName
        try ExportError.writing(path) { () throws(SystemCallError) in try AtomicFile.writeWholeIfChanged(Array(data), to: path) }
    }
}

/// The `.m3u` playlist of an export, in reading order.
enum Playlist {
    static func contents(_ files: [ExportedFile]) -> String {
        var lines = ["#EXTM3U"]
        for file in files.sorted(by: { $0.number < $1.number }) {
            lines.append("#EXTINF:\(Int(file.duration.rounded())),\(file.title)")
            lines.append(file.fileName)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
