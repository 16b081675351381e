/// Failures of exporting a book to audio files.
public enum ExportError: Error, Sendable, Equatable {
    /// A file of the export could not be written.
    case outputFailed(OutputError)
    case encoderFailed(format: String, reason: String)
    case ffmpegMissing
    case invalidSelection(String)
    case workerFailed(pageLabel: String, reason: String)
    case incomplete(failedChunks: Int, files: [String])
    case cancelled
    case speech(SpeechError)
    case book(BookError)
}

extension ExportError: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .outputFailed(error):
            "\(error.problem). \(error.remedy), then run the same command again: finished files are kept."
        case let .encoderFailed(format, reason):
            "The \(format) encoder failed: \(reason)."
        case .ffmpegMissing:
            "M4B needs the ffmpeg program, which is not installed. Install it (apt-get install ffmpeg) or choose --format mp3 or wav."
        case let .invalidSelection(message):
            message
        case let .workerFailed(pageLabel, reason):
            "Synthesis failed on page \(pageLabel): \(reason)."
        case let .incomplete(failedChunks, files):
            "\(failedChunks) piece\(failedChunks == 1 ? "" : "s") of text could not be synthesized, so \(files.count) file\(files.count == 1 ? " was" : "s were") not written (\(files.prefix(5).joined(separator: ", "))\(files.count > 5 ? ", …" : "")). The rest of the book is done; run the same command again to retry."
        case .cancelled:
            "The export was stopped. Finished files are kept; run the same command again to go on."
        case let .speech(error):
            error.description
        case let .book(error):
            error.description
        }
    }
}
