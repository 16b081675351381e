/// How a book is cut into audio files.
public enum ExportSplit: String, Sendable, Hashable, Codable, CaseIterable {
    case page, chapter, book
}

/// The formats a book can be exported to: audio files, or a read-along EPUB 3 (the book's text
/// with its narration as media overlays, the audio inside as MP3).
public enum ExportFormat: String, Sendable, Hashable, Codable, CaseIterable {
    case wav, mp3, m4b, epub

    public var fileExtension: String { rawValue }

    /// The extension of each item's audio file: a read-along EPUB holds MP3.
    public var audioFileExtension: String { self == .epub ? "mp3" : rawValue }
}

/// What a read-along EPUB highlights as the narration goes: each sentence, or each word.
public enum ReadAlongGranularity: String, Sendable, Hashable, Codable, CaseIterable {
    case sentence, word
}

/// Subtitle formats written beside each audio file.
public enum SubtitleFormat: String, Sendable, Hashable, Codable, CaseIterable {
    case vtt, srt
}

/// The part of a book to export: 1-based, inclusive ranges.
public enum ExportSelection: Sendable, Hashable, Codable {
    case all
    case pages(ClosedRange<Int>)
    case chapters(ClosedRange<Int>)
}

/// One of `count` equal parts of the work, for spreading a book over processes or machines.
public struct ExportShard: Sendable, Hashable, Codable {
    /// 1-based.
    public var index: Int
    public var count: Int

    public init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }
}
