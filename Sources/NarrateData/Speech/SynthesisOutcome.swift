import NarrateDomain

/// What a synthesis asked to write a cache entry itself (`EntryDraft`) gave.
public enum SynthesisOutcome: Sendable {
    /// The engine wrote the entry at the draft's path: so many samples at that rate, and the
    /// word marks it holds.
    case storedEntry(sampleRate: Int, sampleCount: Int, wordMarks: [WordMark])
    /// The engine could not write the entry (a full or read-only disk, or an engine that
    /// cannot): the audio came back in memory and nothing is at the draft's path.
    case audio(SpeechAudio)

    public var duration: Double {
        switch self {
        case let .storedEntry(sampleRate, sampleCount, _): sampleRate > 0 ? Double(sampleCount) / Double(sampleRate) : 0
        case let .audio(audio): audio.duration
        }
    }
}
