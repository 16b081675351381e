/// What the speech path did for one utterance, for whoever counts (the service's metrics).
public enum SynthesisEvent: Sendable {
    /// The audio came from the cache; `bytes` of PCM.
    case cacheHit(bytes: Int)
    /// The cache did not have it: it is synthesized next.
    case cacheMiss
    /// The engine synthesized `audioSeconds` of audio in `seconds`.
    case synthesized(seconds: Double, audioSeconds: Double)
    /// The engine failed.
    case failed(SpeechError)
}
