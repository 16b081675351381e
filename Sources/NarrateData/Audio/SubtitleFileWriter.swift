import NarrateDomain

/// Writes a subtitle file (or any small text file) so that the destination is either untouched or complete.
///
/// The text goes to an `AtomicFile` beside the destination, which is fsynced and then renamed over
/// it; on failure the temporary file is removed.
public enum SubtitleFileWriter {
    /// Writes `contents` as UTF-8 to `path`, replacing any file there.
    /// - Throws: `ExportError.outputFailed` when the folder is missing or not writable, the disk is full, or
    ///   `path` names a folder.
    public static func write(_ contents: String, to path: String) throws(ExportError) {
        try ExportError.writing(path) { () throws(SystemCallError) in try AtomicFile.writeWhole(Array(contents.utf8), to: path) }
    }
}
