import NarrateData
import NarrateDomain

extension NarrateEnvironment {
    /// Showing how a voice reads a text (`narrate phonemes`), with the lexicons applied as
    /// synthesis applies them, through this environment's workers; nothing is synthesized or
    /// cached.
    public func phonemizeText() -> any PhonemizeTextUseCaseContract {
        PhonemizeTextUseCase(repository: TTSRepository(synthesizer: espeak, cache: nil, logger: logger))
    }
}
