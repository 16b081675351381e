/// How a book is cut into audio files.
public enum ExportSplit: String, Sendable, Hashable, Codable, CaseIterable {
    case page, chapter, book
}

/// The audio file formats a book can be exported to.
public enum ExportFormat: String, Sendable, Hashable, Codable, CaseIterable {
    case wav, mp3, m4b

    public var fileExtension: String { rawValue }
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
