import NarrateDomain

/// Encodes 16-bit mono PCM to an MP3 file with LAME, streaming: each `append` is encoded and
/// written at once.
///
/// The stream is mono, constant bitrate, at the PCM's own sample rate, with LAME quality 2
/// ("near-best, not too slow": encoding stays far faster than synthesis). The file starts with
/// an ID3v2 tag (title, artist, album, track n/total, year, JPEG/PNG cover as APIC); `finish()`
/// writes the LAME/Xing info frame so players know the exact duration and gapless padding.
///
/// The default bitrate is 56 kbps (about 25 MB per hour), clear for a single voice at 22050 Hz.
/// It is also the lowest at which the info frame fits: LAME writes that frame at the stream's
/// bitrate, and a 22050 Hz frame at 48 kbps holds 156 bytes where the frame needs 169, so LAME
/// leaves it out. Lower bitrates still work, but players then estimate the duration from the
/// bitrate (LAME's encoder delay and padding, about 0.05 s, count as audio). At 24000 Hz and
/// 48000 Hz the info frame needs 64 kbps.
///
/// Like `WAVWriter`, the file is written under a temporary name beside the destination and
/// renamed into place by `finish()`, so the destination never holds a partial file.
public final class MP3Writer {
    /// The default constant bitrate, in kbps (the lowest that carries the info frame at 22050 Hz).
    public static let defaultBitrate = 56
    /// LAME's algorithm quality (0 best … 9 fastest); 2 is lame.h's recommendation.
    static let quality = 2
    /// Samples per `lame_encode_buffer` call, so the MP3 buffer stays small whatever the input.
    static let blockSize = 64 * 1024

    /// The destination path.
    public let path: String
    /// The PCM's (and the MP3's) sample rate.
    public let sampleRate: Int
    private let file: AtomicFile
    private let encoder: LameEncoder
    /// Where the first audio frame (the info frame's placeholder) starts: after the ID3v2 tag.
    private let infoFrameOffset: Int
    /// The tag written first; with chapters, written again at the end with their times.
    private var tag: ID3v2Tag
    private var sampleCount = 0
    private var mp3Buffer: [UInt8]
    private var isClosed = false

    /// Opens a temporary file beside `path` and writes the ID3v2 tag.
    /// - Parameters:
    ///   - sampleRate: the rate of the PCM to come; every appended `SpeechAudio` must have it.
    ///   - bitrate: constant bitrate in kbps (LAME rounds to the nearest valid one).
    /// - Throws: `ExportError.outputFailed` when the folder is missing or not writable,
    ///   `ExportError.encoderFailed` when MP3 cannot hold the sample rate or LAME fails.
    ///   - chapterTitles: the titles of the chapters whose starts `setChapters` gives before
    ///     `finish`: their `CHAP` frames are reserved in the tag now.
    public init(path: String, sampleRate: Int, metadata: AudioFileMetadata, bitrate: Int = MP3Writer.defaultBitrate, chapterTitles: [String] = []) throws(ExportError) {
        self.path = path
        self.sampleRate = sampleRate
        encoder = try LameEncoder(sampleRate: sampleRate, bitrate: bitrate, quality: Self.quality)
        file = try ExportError.writing(path) { () throws(SystemCallError) in try AtomicFile(destination: path) }
        mp3Buffer = [UInt8](repeating: 0, count: LameEncoder.outputCapacity(for: Self.blockSize))
        self.tag = ID3v2Tag(metadata: metadata, chapterTitles: chapterTitles)
        let tag = self.tag.bytes()
        infoFrameOffset = tag.count
        do {
            try ExportError.writing(path) { () throws(SystemCallError) in try file.write(tag) }
        } catch {
            file.discard()
            isClosed = true
            throw error
        }
    }

    deinit {
        if !isClosed { discard() }
    }

    /// Encodes `audio`'s samples and writes the frames LAME completes.
    /// - Throws: `ExportError.outputFailed` when writing fails (the temporary file is removed),
    ///   `ExportError.encoderFailed` for audio at another rate or a LAME failure.
    public func append(_ audio: SpeechAudio) throws(ExportError) {
        guard !isClosed else { throw .encoderFailed(format: "MP3", reason: "the file '\(path)' was already finished or discarded") }
        guard audio.sampleRate == sampleRate else {
            throw .encoderFailed(format: "MP3", reason: "audio at \(audio.sampleRate) Hz cannot follow audio at \(sampleRate) Hz in one file")
        }
        do {
            var start = 0
            while start < audio.samples.count {
                let end = min(start + Self.blockSize, audio.samples.count)
                let produced = try encodeBlock(audio.samples, start..<end)
                try writeBuffer(count: produced)
                start = end
            }
            sampleCount += audio.samples.count
        } catch {
            discard()
            throw error
        }
    }

    /// Flushes LAME, writes the info frame, fsyncs the file and renames it into place.
    /// - Throws: `ExportError.outputFailed` or `.encoderFailed`; the destination is then untouched
    ///   and no temporary file is left.
    public func finish() throws(ExportError) {
        guard !isClosed else { throw .encoderFailed(format: "MP3", reason: "the file '\(path)' was already finished or discarded") }
        do {
            let produced = try flushEncoder()
            try writeBuffer(count: produced)
            let frame = encoder.infoFrame()
            let file = self.file, offset = infoFrameOffset
            var finalTag: [UInt8] = []
            if !tag.chapterTitles.isEmpty {
                // The chapters' times are known now; the tag keeps its size (padded).
                let chapters = ID3v2Tag.chapters(pendingChapters, sampleRate: sampleRate, totalSamples: sampleCount)
                var timed = tag
                timed.chapterTitles = chapters.titles
                timed.chapterTimes = chapters.times
                finalTag = timed.bytes(paddedTo: offset)
                if finalTag.count != offset { finalTag = [] }
            }
            try ExportError.writing(path) { () throws(SystemCallError) in
                if !frame.isEmpty { try file.write(frame, at: offset) }
                if !finalTag.isEmpty { try file.write(finalTag, at: 0) }
            }
            isClosed = true
            try ExportError.writing(path) { () throws(SystemCallError) in try file.commit() }
        } catch {
            discard()
            throw error
        }
    }

    /// Abandons the output: the temporary file is removed, the destination is untouched.
    /// Where the chapters named at `init` start (in samples), for the `CHAP` frames `finish` writes.
    public func setChapters(_ markers: [AudioFileMetadata.ChapterMarker]) {
        pendingChapters = markers
    }

    private var pendingChapters: [AudioFileMetadata.ChapterMarker] = []

    public func discard() {
        isClosed = true
        file.discard()
    }

    // MARK: - Private

    /// Runs LAME straight over the samples' storage; no copy, no per-sample loop.
    private func encodeBlock(_ samples: [Int16], _ range: Range<Int>) throws(ExportError) -> Int {
        let encoder = self.encoder
        let result: Result<Int, ExportError> = samples.withUnsafeBufferPointer { pcm in
            mp3Buffer.withUnsafeMutableBufferPointer { output in
                Result { () throws(ExportError) -> Int in
                    try encoder.encode(UnsafeBufferPointer(rebasing: pcm[range]), into: output)
                }
            }
        }
        return try result.get()
    }

    private func flushEncoder() throws(ExportError) -> Int {
        let encoder = self.encoder
        let result: Result<Int, ExportError> = mp3Buffer.withUnsafeMutableBufferPointer { output in
            Result { () throws(ExportError) -> Int in try encoder.flush(into: output) }
        }
        return try result.get()
    }

    private func writeBuffer(count: Int) throws(ExportError) {
        guard count > 0 else { return }
        let file = self.file
        let result: Result<Void, SystemCallError> = mp3Buffer.withUnsafeBytes { bytes in
            Result { () throws(SystemCallError) in try file.write(UnsafeRawBufferPointer(rebasing: bytes[..<count])) }
        }
        try ExportError.writing(path) { () throws(SystemCallError) in try result.get() }
    }
}
