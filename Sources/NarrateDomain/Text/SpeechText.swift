/// A text prepared for speech, once: plain text normalized (Unicode NFC, whitespace folded) and
/// cut into engine-sized chunks at sentence boundaries; SSML trimmed and kept whole (markup
/// cannot be cut safely). What a front end checks for emptiness, keys and speaks, so no path
/// normalizes or cuts a text twice.
public struct SpeechText: Sendable, Equatable {
    /// The text as the engine gets it, whole: normalized, or for SSML trimmed.
    public let text: String
    public let isSSML: Bool
    /// The pieces the engine is given, in order, with their offsets into `text`.
    public let chunks: [TextChunk]
    /// Unicode scalars in the text as given, for the bound on how much audio one text may ask for.
    public let givenScalarCount: Int

    public init(_ given: String, isSSML: Bool = false) {
        self.isSSML = isSSML
        givenScalarCount = given.unicodeScalars.count
        if isSSML {
            text = given.trimmingWhitespace
            chunks = text.isEmpty ? [] : [TextChunk(text: text, scalarOffset: 0)]
        } else {
            text = TextNormalizer.normalize(given)
            chunks = TextChunker.chunks(of: text, maxScalars: NarrationPipeline.maxChunkScalars)
        }
    }

    /// The chunks `voice` is given: `chunks`, or for a neural voice (Piper, Kokoro) the first
    /// sentence alone and the rest packed as in `chunks` (SSML stays whole).
    public func chunks(for voice: VoiceProfile) -> [TextChunk] {
        guard voice.isNeural, !isSSML else { return chunks }
        return NarrationPipeline.chunks(of: text, voice: voice)
    }

    /// Whether there is nothing to say (no chunk).
    public var isEmpty: Bool { chunks.isEmpty }

    /// The whole text spoken by `voice`: what a rendering of all of it is keyed by.
    public func request(voice: VoiceProfile) -> SpeechRequest {
        SpeechRequest(text: text, voice: voice, isSSML: isSSML)
    }
}
