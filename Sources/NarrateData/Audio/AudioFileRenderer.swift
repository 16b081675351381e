import Glibc
import NarrateDomain

/// Synthesized audio as one whole file in a given format, written under a temporary name and
/// renamed into place: WAV, MP3 (with its info frame) and 24 kHz PCM in this process, the
/// others by ffmpeg into a seekable file, so their headers are complete.
public enum AudioFileRenderer {
    /// Writes `chunks`, in order, as `format` at `path`, making its folder if needed.
    /// - Throws: `SpeechError` or `ExportError` when the file cannot be written or encoded;
    ///   nothing is left at `path` then.
    public static func write(_ chunks: [SpeechAudio], format: StreamFormat, to path: String) async throws {
        let sampleRate = chunks.first?.sampleRate ?? 22_050
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            try Folder.makeAll(String(path[..<slash]))
        }
        switch format {
        case .wav:
            let writer = try WAVWriter(path: path)
            do {
                for chunk in chunks { try writer.append(chunk) }
                try writer.finish(defaultSampleRate: sampleRate)
            } catch {
                writer.discard()
                throw error
            }
        case .mp3:
            let writer = try MP3Writer(path: path, sampleRate: sampleRate, metadata: AudioFileMetadata(title: "", artist: "", album: "", trackNumber: 0, trackCount: 0))
            do {
                for chunk in chunks { try writer.append(chunk) }
                try writer.finish()
            } catch {
                writer.discard()
                throw error
            }
        case .pcm:
            let encoder = try PCMStreamEncoder(.pcm(rate: StreamFormat.pcmSampleRate), sampleRate: sampleRate)
            for chunk in chunks { try encoder.feed(chunk.samples) }
            try encoder.finish()
            var bytes: [UInt8] = []
            for try await part in encoder.output { bytes += part }
            try AtomicFile.writeWhole(bytes, to: path)
        case .flac, .opus, .aac:
            let temporary = TemporaryFileName.beside(path)
            let encoder = try FFmpegStreamEncoder(format: format, sampleRate: sampleRate, file: temporary)
            do {
                for chunk in chunks { try encoder.feed(chunk.samples) }
                try encoder.finish()
                for try await _ in encoder.output {}
                guard rename(temporary, path) == 0 else {
                    throw ExportError.encoderFailed(format: format.rawValue, reason: "could not move the file into place: \(SystemCallError.message(errno))")
                }
            } catch {
                encoder.cancel()
                unlink(temporary)
                throw error
            }
        }
    }
}
