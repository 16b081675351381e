import NarrateDomain

/// One export file being written, in whichever format was asked for.
enum AudioFileOutput {
    case wav(WAVWriter)
    case mp3(MP3Writer)
    case m4b(M4BWriter)

    init(format: ExportFormat, path: String, sampleRate: Int, metadata: AudioFileMetadata) throws(ExportError) {
        switch format {
        case .wav:
            do { self = .wav(try WAVWriter(path: path)) } catch { throw .speech(error) }
        case .mp3:
            self = .mp3(try MP3Writer(path: path, sampleRate: sampleRate, metadata: metadata))
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
