/// How well an engine's audio is timed against its text, which is how exact subtitles can be.
public enum SpeechTiming: String, Sendable, Hashable, Codable {
    /// Every word's start is known (eSpeak NG's word events).
    case words
    /// Only estimates per sentence, from the audio's length (a remote speech API).
    case sentences
}
