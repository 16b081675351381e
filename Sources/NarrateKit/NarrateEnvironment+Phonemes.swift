import NarrateData
import NarrateDomain

extension NarrateEnvironment {
    /// Showing how a voice reads a text (`narrate phonemes`), through this environment's
    /// workers; nothing is synthesized or cached.
    public func phonemizeText() -> any PhonemizeTextUseCaseContract {
        PhonemizeTextUseCase(repository: espeak)
    }
}
