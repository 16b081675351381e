import NarrateDomain

/// One export file being written, in whichever format was asked for.
enum AudioFileOutput {
    case wav(WAVWriter)
    case mp3(MP3Writer)
    case m4b(M4BWriter)

    /// - Parameter chapterTitles: the chapters `setChapters` will place (MP3 reserves their frames).
    init(format: ExportFormat, path: String, sampleRate: Int, metadata: AudioFileMetadata, chapterTitles: [String] = []) throws(ExportError) {
        switch format {
        case .wav:
            do { self = .wav(try WAVWriter(path: path)) } catch { throw .speech(error) }
        case .mp3, .epub:
            self = .mp3(try MP3Writer(path: path, sampleRate: sampleRate, metadata: metadata, chapterTitles: chapterTitles))
        case .m4b:
            self = .m4b(try M4BWriter(path: path, sampleRate: sampleRate, metadata: metadata))
        }
    }

    func append(_ audio: SpeechAudio) throws(ExportError) {
        switch self {
        case let .wav(writer): do { try writer.append(audio) } catch { throw Self.mapped(error) }
        case let .mp3(writer): try writer.append(audio)
        case let .m4b(writer): try writer.append(audio)
        }
    }

    /// Appends a fresh cache entry's PCM by an in-kernel copy, where the format is PCM itself
    /// (WAV); `false` when it is not, and the caller appends the audio read from the cache.
    func appendCopy(of source: EntrySource) throws(ExportError) -> Bool {
        guard case let .wav(writer) = self else { return false }
        do { try writer.append(source) } catch { throw Self.mapped(error) }
        return true
    }

    /// Where chapters start, for the formats that mark them (M4B chapters, MP3 `CHAP` frames).
    func setChapters(_ markers: [AudioFileMetadata.ChapterMarker]) {
        switch self {
        case .wav: break
        case let .mp3(writer): writer.setChapters(markers)
        case let .m4b(writer): writer.setChapters(markers)
        }
    }

    func finish(sampleRate: Int) throws(ExportError) {
        switch self {
        case let .wav(writer): do { try writer.finish(defaultSampleRate: sampleRate) } catch { throw Self.mapped(error) }
        case let .mp3(writer): try writer.finish()
        case let .m4b(writer): try writer.finish()
        }
    }

    func discard() {
        switch self {
        case let .wav(writer): writer.discard()
        case let .mp3(writer): writer.discard()
        case let .m4b(writer): writer.discard()
        }
    }

    private static func mapped(_ error: SpeechError) -> ExportError {
        if case let .outputFailed(output) = error { return .outputFailed(output) }
        return .speech(error)
    }
}
