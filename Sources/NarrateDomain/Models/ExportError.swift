/// Failures of exporting a book to audio files.
public enum ExportError: Error, Sendable, Equatable {
    /// A file of the export could not be written.
    case outputFailed(OutputError)
    case encoderFailed(format: String, reason: String)
    /// The format cannot hold audio at the engine's sample rate.
    case sampleRateUnsupported(format: String, sampleRate: Int, supported: [Int])
    case ffmpegMissing
    /// The book has no pages at all.
    case noPages(title: String)
    /// The pages or chapters chosen hold no text.
    case emptySelection(title: String)
    case pagesOutsideBook(first: Int, last: Int, pageCount: Int)
    case chaptersOutsideBook(first: Int, last: Int, chapterCount: Int)
    /// Chapters were chosen in a book that has none.
    case noChapters(title: String)
    /// The chapter's start could not be found among the book's pages.
    case chapterOutsidePages(chapter: Int, pageCount: Int)
    case workerFailed(pageLabel: String, reason: String)
    /// Speaking a text of page `pageLabel` failed while its file was written.
    case synthesisFailed(pageLabel: String, SpeechError)
    case incomplete(failedChunks: Int, files: [String])
    case cancelled
    case speech(SpeechError)
    case book(BookError)
    /// A read-along EPUB is made from the book's own file, which could not be read again.
    case readAlongSourceUnreadable(path: String)
}

extension ExportError: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .outputFailed(error):
            "\(error.problem). \(error.remedy), then run the same command again: finished files are kept."
        case let .encoderFailed(format, reason):
            "The \(format) encoder failed: \(reason)."
        case let .sampleRateUnsupported(format, sampleRate, supported):
            "\(format) cannot hold audio at \(sampleRate) Hz (it takes \(supported.map(String.init).joined(separator: ", ")) Hz). Choose another format."
        case .ffmpegMissing:
            "M4B needs the ffmpeg program, which is not installed. Install it (apt-get install ffmpeg) or choose MP3 or WAV."
        case let .noPages(title):
            "'\(title)' has no pages to export."
        case let .emptySelection(title):
            "The selection holds no text of '\(title)'. Choose other pages or chapters."
        case let .pagesOutsideBook(first, last, pageCount):
            "Pages \(first)-\(last) are outside the book: it has pages 1-\(pageCount)."
        case let .chaptersOutsideBook(first, last, chapterCount):
            "Chapters \(first)-\(last) are outside the book: it has chapters 1-\(chapterCount)."
        case let .noChapters(title):
            "'\(title)' has no chapters; choose pages instead."
        case let .chapterOutsidePages(chapter, pageCount):
            "Chapter \(chapter) starts outside the book's pages (1-\(pageCount)); choose pages instead."
        case let .workerFailed(pageLabel, reason):
            "Synthesis failed on page \(pageLabel): \(reason)."
        case let .synthesisFailed(pageLabel, error):
            "Synthesis failed on page \(pageLabel): \(error.description)."
        case let .incomplete(failedChunks, files):
            "\(failedChunks) piece\(failedChunks == 1 ? "" : "s") of text could not be synthesized, so \(files.count) file\(files.count == 1 ? " was" : "s were") not written (\(files.prefix(5).joined(separator: ", "))\(files.count > 5 ? ", …" : "")). The rest of the book is done; run the same command again to retry."
        case .cancelled:
            "The export was stopped. Finished files are kept; run the same command again to go on."
        case let .speech(error):
            error.description
        case let .book(error):
            error.description
        case let .readAlongSourceUnreadable(path):
            "A read-along EPUB is made from the book's file, and '\(path)' cannot be read any more. Put the book back there, or give its file instead of its library entry."
        }
    }
}
