/// The engine's reading of a text as phonemes, without synthesizing it.
public protocol PhonemeRepositoryContract: Sendable {
    /// The phonemes of `request.text` as `request.voice` reads them, sentence by sentence.
    /// - Throws: `SpeechError` as synthesis would (an unknown voice, a broken Piper voice).
    func phonemes(_ request: SpeechRequest) async throws(SpeechError) -> [PhonemizedSentence]
}
