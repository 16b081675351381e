import NarrateDomain

/// ffmpeg's metadata file format (`;FFMETADATA1`): global tags, then one `[CHAPTER]` section per
/// chapter with its start and end in samples (`TIMEBASE=1/<rate>`).
enum FFMetadata {
    /// The document for a file of `totalSamples` samples at `sampleRate`.
    ///
    /// A chapter ends where the next one starts, the last one at the end of the audio. Chapters
    /// are sorted by start; those starting at or after the end of the audio are left out.
    static func document(for metadata: AudioFileMetadata, sampleRate: Int, totalSamples: Int) -> String {
        var lines = [";FFMETADATA1"]
        func tag(_ key: String, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            lines.append("\(key)=\(escape(value))")
        }
        tag("title", metadata.title)
        tag("artist", metadata.artist)
        tag("album", metadata.album)
        tag("date", metadata.year)
        if metadata.trackNumber > 0 {
            tag("track", metadata.trackCount > 0 ? "\(metadata.trackNumber)/\(metadata.trackCount)" : "\(metadata.trackNumber)")
        }

        let chapters = metadata.chapters
            .filter { $0.startSample >= 0 && $0.startSample < totalSamples }
            .sorted { $0.startSample < $1.startSample }
        for (index, chapter) in chapters.enumerated() {
            let end = index + 1 < chapters.count ? chapters[index + 1].startSample : totalSamples
            lines.append("[CHAPTER]")
            lines.append("TIMEBASE=1/\(sampleRate)")
            lines.append("START=\(chapter.startSample)")
            lines.append("END=\(end)")
            tag("title", chapter.title)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Escapes `=`, `;`, `#`, `\` and line breaks with a backslash, as ffmpeg's format requires.
    /// A carriage return becomes a line feed, so CRLF titles do not carry a stray `\r`.
    static func escape(_ value: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(value.utf8.count)
        for character in value {
            switch character {
            case "=", ";", "#", "\\":
                escaped.append("\\")
                escaped.append(character)
            case "\n", "\r", "\r\n":
                escaped.append("\\\n")
            default:
                escaped.append(character)
            }
        }
        return escaped
    }
}
