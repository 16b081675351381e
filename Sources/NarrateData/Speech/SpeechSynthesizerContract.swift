import NarrateDomain

/// What identifies an engine's output for caching: same descriptor and request ⇒ same samples.
public struct EngineDescriptor: Sendable, Hashable {
    public var id: String
    public var version: String
    public var sampleRate: Int

    public init(id: String, version: String, sampleRate: Int) {
        self.id = id
        self.version = version
        self.sampleRate = sampleRate
    }
}

/// A source of speech: eSpeak NG and Piper voices (in worker processes), or a remote speech API.
public protocol SpeechSynthesizerContract: Sendable {
    /// The engine's identity, part of every cache key. A `sampleRate` of 0: the rate the engine
    /// delivers, not known ahead.
    func descriptor() async throws(SpeechError) -> EngineDescriptor
    /// The identity of the engine that speaks `request` (an engine with several kinds of voice
    /// names the voice's model here), part of its cache key.
    func descriptor(for request: SpeechRequest) async throws(SpeechError) -> EngineDescriptor
    /// Synthesizes `request` as one utterance.
    func synthesize(_ request: SpeechRequest) async throws(SpeechError) -> SpeechAudio
    /// Synthesizes `request` straight into the cache entry `draft` names, where the engine can
    /// (eSpeak's worker child writes it itself); otherwise the audio comes back in memory.
    /// On a throw nothing is left at the draft's path.
    func synthesize(_ request: SpeechRequest, into draft: EntryDraft) async throws(SpeechError) -> SynthesisOutcome
    /// Whether the engine reads eSpeak phoneme spans (`[[…]]`), which is how pronunciation
    /// lexicons are applied.
    var acceptsPhonemes: Bool { get }
    /// How many texts the engine works on at once.
    var concurrency: Int { get }
    /// How exactly its audio is timed against the text.
    var timing: SpeechTiming { get }
    /// Gets ready to synthesize (starts worker processes), so that start-up overlaps other work.
    func prestart() throws(SpeechError)
    /// Releases what `prestart` or synthesis started; later requests start it again.
    func shutdown()
    /// Who reads, as a listener would name it ("eSpeak NG en-us"), for audiobook metadata.
    func narrator(speaking voice: VoiceProfile) -> String
    /// How exactly the audio of `voice` is timed against the text.
    func timing(for voice: VoiceProfile) -> SpeechTiming
}

extension SpeechSynthesizerContract {
    public func descriptor(for request: SpeechRequest) async throws(SpeechError) -> EngineDescriptor {
        try await descriptor()
    }
    public func synthesize(_ request: SpeechRequest, into draft: EntryDraft) async throws(SpeechError) -> SynthesisOutcome {
        .audio(try await synthesize(request))
    }
    public var acceptsPhonemes: Bool { true }
    public var concurrency: Int { 1 }
    public var timing: SpeechTiming { .words }
    public func prestart() throws(SpeechError) {}
    public func shutdown() {}
    public func narrator(speaking voice: VoiceProfile) -> String { "eSpeak NG \(voice.voice)" }
    public func timing(for voice: VoiceProfile) -> SpeechTiming { timing }
}
