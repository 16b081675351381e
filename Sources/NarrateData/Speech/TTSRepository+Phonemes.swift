import NarrateDomain

extension TTSRepository: PhonemeRepositoryContract {
    /// The engine's reading of `request`, with the pronunciation lexicons applied as synthesis
    /// applies them (their words given to the engine as phonemes), and each sentence placed
    /// back on the request's own text.
    /// - Throws: `SpeechError.engineUnavailable` for an engine that cannot show phonemes (a
    ///   remote API).
    public func phonemes(_ request: SpeechRequest) async throws(SpeechError) -> [PhonemizedSentence] {
        guard let engine = synthesizer as? any PhonemeRepositoryContract else {
            throw .engineUnavailable(reason: "this engine (a remote speech API) cannot show phonemes")
        }
        guard !request.isSSML, !request.voice.lexicons.isEmpty, synthesizer.acceptsPhonemes else { return try await engine.phonemes(request) }
        let pronouncer = pronouncer(for: request.voice)
        guard pronouncer.usesPhonemes else { return try await engine.phonemes(request) }
        let pronounced = pronouncer.apply(request.text)
        var voice = request.voice
        voice.lexicons = []
        return try await engine.phonemes(SpeechRequest(text: pronounced.text, voice: voice, phonemeInput: true)).map { sentence in
            let mark = pronounced.originalMark(WordMark(textOffset: sentence.textOffset, textLength: sentence.textLength, sampleOffset: 0))
            var placed = sentence
            placed.textOffset = mark.textOffset
            placed.textLength = mark.textLength
            return placed
        }
    }
}
