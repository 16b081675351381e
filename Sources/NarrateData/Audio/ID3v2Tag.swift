import NarrateDomain

/// An ID3v2.3 tag, the version every player reads: UTF-16 text frames (title, artist, album,
/// year, track, language), the cover as an `APIC` of picture type 3 ("Cover (front)", which is
/// what players look for), and chapters as the ID3 chapter addendum's `CHAP` frames under one
/// ordered, top-level `CTOC`, each with its title.
///
/// A tag can be made before the audio is encoded with chapters whose times are not known yet
/// (`reserving`), and made again at the end with the real times: it is the same size (times
/// are fixed-width fields), or smaller when chapters drop out, so it is padded to the reserved
/// size and written over the first.
struct ID3v2Tag {
    var metadata: AudioFileMetadata
    /// The titles of the chapters to come, in order, for a tag made before their times are known.
    var chapterTitles: [String]
    /// Each chapter's start and end, in milliseconds (empty until they are known).
    var chapterTimes: [(start: UInt32, end: UInt32)] = []

    /// The APIC picture type players look for.
    static let coverFront: UInt8 = 3

    init(metadata: AudioFileMetadata, chapterTitles: [String] = []) {
        self.metadata = metadata
        self.chapterTitles = chapterTitles
    }

    /// The tag with the chapters `markers` of audio `totalSamples` long at `sampleRate`: a
    /// chapter ends where the next starts, the last at the end; those at or past the end are left out.
    static func chapters(_ markers: [AudioFileMetadata.ChapterMarker], sampleRate: Int, totalSamples: Int) -> (titles: [String], times: [(start: UInt32, end: UInt32)]) {
        let kept = markers.filter { $0.startSample >= 0 && $0.startSample < totalSamples }.sorted { $0.startSample < $1.startSample }
        func milliseconds(_ sample: Int) -> UInt32 {
            UInt32(clamping: Int((Double(sample) * 1000 / Double(max(sampleRate, 1))).rounded()))
        }
        var times: [(start: UInt32, end: UInt32)] = []
        for (index, marker) in kept.enumerated() {
            let end = index + 1 < kept.count ? kept[index + 1].startSample : totalSamples
            times.append((milliseconds(marker.startSample), milliseconds(end)))
        }
        return (kept.map(\.title), times)
    }

    /// The whole tag: header, frames, then zero padding up to `size` when it is given (and larger).
    func bytes(paddedTo size: Int? = nil) -> [UInt8] {
        var frames: [UInt8] = []
        frames += Self.textFrame("TIT2", metadata.title)
        frames += Self.textFrame("TPE1", metadata.artist)
        frames += Self.textFrame("TALB", metadata.album)
        if let year = metadata.year { frames += Self.textFrame("TYER", year) }
        if metadata.trackNumber > 0 {
            frames += Self.textFrame("TRCK", metadata.trackCount > 0 ? "\(metadata.trackNumber)/\(metadata.trackCount)" : "\(metadata.trackNumber)")
        }
        if let language = metadata.language.flatMap(Self.iso639_2) { frames += Self.textFrame("TLAN", language) }
        if let cover = EmbeddableCover(metadata.cover) {
            var body: [UInt8] = [0]  // Latin-1 MIME type and an empty description
            body += Array((cover.kind == .png ? "image/png" : "image/jpeg").utf8) + [0]
            body += [Self.coverFront, 0]
            body += cover.data
            frames += Self.frame("APIC", body)
        }
        if !chapterTitles.isEmpty {
            let ids = chapterTitles.indices.map { "ch\($0)" }
            var toc: [UInt8] = Array("toc".utf8) + [0, 0x03, UInt8(clamping: ids.count)]
            for id in ids.prefix(255) { toc += Array(id.utf8) + [0] }
            frames += Self.frame("CTOC", toc)
            for (index, title) in chapterTitles.enumerated().prefix(255) {
                let time = index < chapterTimes.count ? chapterTimes[index] : (start: 0, end: 0)
                var chapter: [UInt8] = Array(ids[index].utf8) + [0]
                chapter += Self.be32(time.start) + Self.be32(time.end) + Self.be32(0xFFFF_FFFF) + Self.be32(0xFFFF_FFFF)
                chapter += Self.textFrame("TIT2", title)
                frames += Self.frame("CHAP", chapter)
            }
        }
        let bodySize = max(frames.count, (size ?? 0) - 10)
        frames += [UInt8](repeating: 0, count: bodySize - frames.count)
        // ID3v2.3 header: version 3.0, no flags, the size as four 7-bit bytes.
        return Array("ID3".utf8) + [3, 0, 0] + Self.syncsafe(bodySize) + frames
    }

    // MARK: - Frames

    /// A v2.3 frame: ID, size (plain 32-bit), no flags.
    static func frame(_ id: String, _ body: [UInt8]) -> [UInt8] {
        Array(id.utf8) + be32(UInt32(body.count)) + [0, 0] + body
    }

    /// A text frame in UTF-16 with a byte order mark (encoding 1); nothing for empty text.
    static func textFrame(_ id: String, _ text: String) -> [UInt8] {
        guard !text.isEmpty else { return [] }
        var body: [UInt8] = [1, 0xFF, 0xFE]
        for unit in text.utf16 { body += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        return frame(id, body + [0, 0])
    }

    static func be32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    static func syncsafe(_ value: Int) -> [UInt8] {
        [UInt8((value >> 21) & 0x7F), UInt8((value >> 14) & 0x7F), UInt8((value >> 7) & 0x7F), UInt8(value & 0x7F)]
    }

    /// TLAN holds ISO 639-2 codes; the common two-letter tags are mapped, others left out.
    static func iso639_2(_ tag: String) -> String? {
        let primary = tag.split(separator: "-").first.map { $0.lowercased() } ?? ""
        if primary.count == 3 { return primary }
        let codes = [
            "en": "eng", "fr": "fra", "de": "deu", "es": "spa", "it": "ita", "nl": "nld", "pt": "por", "ru": "rus",
            "ar": "ara", "zh": "zho", "ja": "jpn", "pl": "pol", "sv": "swe", "da": "dan", "fi": "fin", "no": "nor",
            "el": "ell", "la": "lat", "he": "heb", "tr": "tur", "cs": "ces", "hu": "hun", "eo": "epo",
        ]
        return codes[primary]
    }
}
