/// One utterance to synthesize: already-normalized text and the voice to speak it with.
public struct SpeechRequest: Sendable, Hashable {
    /// The text handed to the engine. Plain text is never interpreted as markup unless `isSSML`.
    public var text: String
    public var voice: VoiceProfile
    /// Whether `text` is SSML markup.
    public var isSSML: Bool

    public init(text: String, voice: VoiceProfile, isSSML: Bool = false) {
        self.text = text
        self.voice = voice
        self.isSSML = isSSML
    }
}
