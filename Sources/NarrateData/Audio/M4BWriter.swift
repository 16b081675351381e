import NarrateDomain

/// Encodes 16-bit mono PCM to an M4B audiobook (AAC in MP4, with chapters and cover) using the
/// `ffmpeg` program, streaming: each `append` goes straight to ffmpeg's standard input.
///
/// While audio comes in, it is encoded to AAC (mono, 64 kbps) on every core, a segment of about
/// two minutes per ffmpeg, and the segments are joined without gaps (`AACSegmentEncoder`).
/// `finish()` then knows the total length, so it writes the FFMETADATA1 file (tags, and
/// chapters whose last one ends at the real end) and lets a last ffmpeg copy the audio — no
/// re-encoding — together with that file and the cover into the M4B. ffmpeg reads chapters
/// before the first sample, and a last chapter with a guessed end makes the MP4's chapter
/// track, and so the file's duration, wrong: hence the separate step.
///
/// Every file (the M4B, the scratch audio, metadata, cover and ffmpeg's logs) is written under a
/// temporary name beside the destination; `finish()` fsyncs the M4B and renames it into place,
/// so the destination never holds a partial file.
public final class M4BWriter {
    /// The AAC bitrate, in kbps.
    static let bitrate = 64

    /// The destination path.
    public let path: String
    /// The PCM's (and the AAC's) sample rate.
    public let sampleRate: Int
    private var metadata: AudioFileMetadata
    private let ffmpeg: String
    private let output: AtomicFile
    private let audio: AtomicFile
    private var encoder: AACSegmentEncoder?
    private var sampleCount = 0
    private var isClosed = false

    /// Finds ffmpeg, opens the temporary files beside `path` and starts encoding.
    /// - Parameters:
    ///   - sampleRate: the rate of the PCM to come; every appended `SpeechAudio` must have it.
    ///   - ffmpegPath: the ffmpeg program (a path, or a name looked up on `PATH`); `ffmpeg` on
    ///     `PATH` when `nil`.
    /// - Throws: `ExportError.ffmpegMissing` when ffmpeg is not found, `.outputFailed` when the
    ///   folder is missing or not writable, `.encoderFailed` when ffmpeg cannot start.
    public init(path: String, sampleRate: Int, metadata: AudioFileMetadata, ffmpegPath: String? = nil) throws(ExportError) {
        guard let ffmpeg = FFmpegProcess.locate(ffmpegPath ?? "ffmpeg") else { throw .ffmpegMissing }
        guard sampleRate > 0 else { throw .encoderFailed(format: "M4B", reason: "\(sampleRate) Hz is not a sample rate") }
        self.path = path
        self.sampleRate = sampleRate
        self.metadata = metadata
        self.ffmpeg = ffmpeg
        output = try ExportError.writing(path) { () throws(SystemCallError) in try AtomicFile(destination: path) }
        audio = try ExportError.writing(path) { () throws(SystemCallError) in try AtomicFile(destination: path, suffix: ".aac") }
        encoder = AACSegmentEncoder(destination: path, sampleRate: sampleRate, ffmpeg: ffmpeg, bitrate: Self.bitrate)
    }

    deinit {
        if !isClosed { discard() }
    }

    /// Sends `audio`'s samples to ffmpeg.
    /// - Throws: `ExportError.encoderFailed` for audio at another rate, or with ffmpeg's last
    ///   error line when it stopped; everything is then discarded.
    public func append(_ audio: SpeechAudio) throws(ExportError) {
        guard !isClosed, let encoder else { throw alreadyClosed() }
        guard audio.sampleRate == sampleRate else {
            throw .encoderFailed(format: "M4B", reason: "audio at \(audio.sampleRate) Hz cannot follow audio at \(sampleRate) Hz in one file")
        }
        do {
            try encoder.append(audio.samples)
        } catch {
            discard()
            throw error
        }
        sampleCount += audio.samples.count
    }

    /// Sets the chapter markers, for a caller that learns where chapters start while it appends.
    public func setChapters(_ chapters: [AudioFileMetadata.ChapterMarker]) {
        metadata.chapters = chapters
    }

    /// Ends the audio, adds tags, chapters and cover, fsyncs the M4B and renames it into place.
    /// - Throws: `ExportError.encoderFailed` (with ffmpeg's last error line) or `.outputFailed`;
    ///   the destination is then untouched and no temporary file is left.
    public func finish() throws(ExportError) {
        guard !isClosed, let encoder else { throw alreadyClosed() }
        do {
            try encoder.finish(into: audio)
            self.encoder = nil

            let document = Array(FFMetadata.document(for: metadata, sampleRate: sampleRate, totalSamples: sampleCount).utf8)
            let cover = EmbeddableCover(metadata.cover)
            let (metadataFile, coverFile) = try ExportError.writing(path) { () throws(SystemCallError) in
                let metadataFile = try AtomicFile(destination: path, suffix: ".ffmetadata")
                try metadataFile.write(document)
                var coverFile: AtomicFile?
                if let cover {
                    let file = try AtomicFile(destination: path, suffix: ".\(cover.fileExtension)")
                    try file.write(cover.data)
                    coverFile = file
                }
                return (metadataFile, coverFile)
            }

            let muxer = try FFmpegProcess(
                executable: ffmpeg, arguments: muxArguments(metadata: metadataFile.path, cover: coverFile?.path),
                format: "M4B", logBeside: path, feedsStandardInput: false
            )
            try muxer.waitForSuccess()
            // The sample entry says mono, as the stream is (ffmpeg 5.1 writes 2 there).
            let mono = output.path
            _ = try ExportError.writing(path) { () throws(SystemCallError) in try MP4ChannelCount.set(1, inFileAt: mono) }
            isClosed = true
            let output = self.output
            try ExportError.writing(path) { () throws(SystemCallError) in try output.commit() }
            audio.discard()
            // The metadata and cover files are removed when they go out of scope.
        } catch {
            discard()
            throw error
        }
    }

    /// Abandons the output: ffmpeg is killed, every temporary file removed, the destination untouched.
    public func discard() {
        isClosed = true
        encoder?.discard()
        encoder = nil
        output.discard()
        audio.discard()
    }

    // MARK: - Private

    private func alreadyClosed() -> ExportError {
        .encoderFailed(format: "M4B", reason: "the file '\(path)' was already finished or discarded")
    }

    /// The joined AAC (input 0) + FFMETADATA1 (input 1) + cover (input 2) → the M4B, audio copied.
    private func muxArguments(metadata: String, cover: String?) -> [String] {
        var arguments = [
            "-hide_banner", "-nostdin", "-loglevel", "error", "-y",
            "-f", "aac", "-i", audio.path,
            "-f", "ffmetadata", "-i", metadata,
        ]
        if let cover { arguments += ["-i", cover] }
        arguments += ["-map", "0:a"]
        if cover != nil { arguments += ["-map", "2:v"] }
        arguments += ["-map_metadata", "1", "-map_chapters", "1", "-c", "copy"]
        if cover != nil { arguments += ["-disposition:v", "attached_pic"] }
        // Players file it as an audiobook: the `M4B ` brand and iTunes' media kind 2 (`stik`).
        arguments += ["-metadata", "media_type=2", "-brand", "M4B "]
        // The index goes first, so players can start before reading the whole file.
        arguments += ["-movflags", "+faststart", "-f", "mp4", output.path]
        return arguments
    }
}
