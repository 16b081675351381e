/// A chunk of text with the voice that reads it: the narrator's, a character's, or the cast's
/// dialogue voice.
public struct VoicedChunk: Sendable, Hashable {
    public var chunk: TextChunk
    public var voice: VoiceProfile

    public init(chunk: TextChunk, voice: VoiceProfile) {
        self.chunk = chunk
        self.voice = voice
    }
}
