/// One utterance to synthesize: already-normalized text and the voice to speak it with.
public struct SpeechRequest: Sendable, Hashable {
    /// The text handed to the engine. Plain text is never interpreted as markup unless `isSSML`.
    public var text: String
    /// The voice, with the pronunciation lexicons in force (`VoiceProfile.lexicons`).
    public var voice: VoiceProfile
    /// Whether `text` is SSML markup.
    public var isSSML: Bool
    /// Whether `[[…]]` spans in `text` are eSpeak phoneme mnemonics. Set only on the text the
    /// repository makes with a `Pronouncer`, where every other `[[` has been broken up.
    public var phonemeInput: Bool

    public init(text: String, voice: VoiceProfile, isSSML: Bool = false, phonemeInput: Bool = false) {
        self.text = text
        self.voice = voice
        self.isSSML = isSSML
        self.phonemeInput = phonemeInput
    }

    /// What the lexicons in force for this voice contribute to the audio cache key: `none`
    /// without any, else the version of the phoneme conversion and the content digest of each
    /// lexicon for the voice's language, in order.
    public var lexiconDigest: String {
        let digests = voice.lexicons.prefix(PronunciationLexicon.maxLexicons).filter { $0.applies(to: voice.voice) }.map(\.digest)
        guard !digests.isEmpty else { return "none" }
        return "conversion-\(PhonemeConverter.version):" + digests.joined(separator: ",")
    }
}
