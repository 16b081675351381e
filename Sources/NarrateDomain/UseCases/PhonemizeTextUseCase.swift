/// Showing how a voice reads a text: its phonemes (and a Piper voice's ids), sentence by
/// sentence, with nothing synthesized. For checking a pronunciation.
public protocol PhonemizeTextUseCaseContract: Sendable {
    /// - Throws: `SpeechError.emptyText`, or what the engine reports.
    func execute(text: String, voice: VoiceProfile) async throws(SpeechError) -> [PhonemizedSentence]
}

public struct PhonemizeTextUseCase: PhonemizeTextUseCaseContract {
    private let repository: any PhonemeRepositoryContract

    public init(repository: any PhonemeRepositoryContract) {
        self.repository = repository
    }

    public func execute(text: String, voice: VoiceProfile) async throws(SpeechError) -> [PhonemizedSentence] {
        // The text as it would be spoken: normalized, the way `SpeakTextUseCase` hands it over.
        let normalized = TextNormalizer.normalize(text)
        guard !normalized.isEmpty else { throw .emptyText }
        let scalars = Array(normalized.unicodeScalars)
        return try await repository.phonemes(SpeechRequest(text: normalized, voice: voice)).map { sentence in
            var sentence = sentence
            let start = max(0, min(sentence.textOffset, scalars.count))
            let end = max(start, min(start + sentence.textLength, scalars.count))
            sentence.text = String(String.UnicodeScalarView(scalars[start..<end]))
            return sentence
        }
    }
}
