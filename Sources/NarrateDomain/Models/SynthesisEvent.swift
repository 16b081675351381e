/// What the speech path did for one utterance, for whoever counts (the service's metrics).
public enum SynthesisEvent: Sendable {
    /// The audio came from the cache: `bytes` of PCM for a text of `characters` Unicode scalars.
    case cacheHit(bytes: Int, characters: Int)
    /// The cache did not have it: it is synthesized next.
    case cacheMiss
    /// The engine synthesized `audioSeconds` of audio in `seconds`.
    case synthesized(seconds: Double, audioSeconds: Double)
    /// The engine failed.
    case failed(SpeechError)
    /// The engine (a remote API) could not deliver `text`, and the fallback engine (eSpeak NG) spoke it.
    case fellBack(text: String)
}
