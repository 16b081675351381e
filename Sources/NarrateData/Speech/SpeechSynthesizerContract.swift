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

/// A source of speech: the eSpeak NG library, or (later) a remote speech API.
public protocol SpeechSynthesizerContract: Sendable {
    /// The engine's identity, part of every cache key.
    func descriptor() async throws(SpeechError) -> EngineDescriptor
    /// Synthesizes `request` as one utterance.
    func synthesize(_ request: SpeechRequest) async throws(SpeechError) -> SpeechAudio
}
