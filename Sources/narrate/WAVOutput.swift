import NarrateKit

/// Writing one piece of audio to a WAV file (or standard output), atomically.
enum WAVOutput {
    static func write(_ audio: SpeechAudio, to path: String) throws {
        let writer = try WAVWriter(path: path)
        do {
            try writer.append(audio)
            try writer.finish()
        } catch {
            writer.discard()
            throw error
        }
    }
}
