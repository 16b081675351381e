/// Speaks a text of any length, delivering its audio chunk by chunk.
public protocol SpeakTextUseCaseContract: Sendable {
    /// Normalizes `text`, cuts it into engine-sized chunks and synthesizes them in order
    /// (cache first). `onAudio` receives each chunk's audio as soon as it is ready; its word
    /// marks carry offsets into the normalized text, sample offsets relative to the chunk.
    /// - Throws: `SpeechError.emptyText` for a text with nothing to say, `pauseTooLong` or
    ///   `textTooLong` for one past its bounds (before anything is synthesized), and any speech error.
    func execute(
        text: String,
        voice: VoiceProfile,
        isSSML: Bool,
        onAudio: (SpeechAudio) async throws(SpeechError) -> Void
    ) async throws(SpeechError) -> SpeechSummary
}

/// Speaks a text of any length: cut into chunks at sentence boundaries, synthesized in parallel
/// through the cache, and handed to the caller in order.
public struct SpeakTextUseCase: SpeakTextUseCaseContract {
    /// How many chunks `execute` cuts `text` into (plain text; SSML is one chunk): a caller
    /// that knows the audio comes in one piece can write exact sizes ahead of it.
    public static func chunkCount(of text: String) -> Int {
        TextChunker.chunks(of: TextNormalizer.normalize(text), maxScalars: NarrationPipeline.maxChunkScalars).count
    }

    private let repository: any TTSRepositoryContract
    private let bounds: SpeechBounds
    private let firstChunkAlone: Bool

    /// - Parameters:
    ///   - bounds: what one text may ask for (pauses, length), checked before anything is
    ///     synthesized.
    ///   - firstChunkAlone: synthesize the first chunk before starting the others, so its audio
    ///     comes as soon as it can (a stream's first byte); the rest then run in parallel.
    public init(repository: any TTSRepositoryContract, bounds: SpeechBounds = .standard, firstChunkAlone: Bool = false) {
        self.repository = repository
        self.bounds = bounds
        self.firstChunkAlone = firstChunkAlone
    }

    public func execute(
        text: String,
        voice: VoiceProfile,
        isSSML: Bool,
        onAudio: (SpeechAudio) async throws(SpeechError) -> Void
    ) async throws(SpeechError) -> SpeechSummary {
        let voice = try voice.validated()
        try bounds.check(text, isSSML: isSSML, voice: voice)
        let chunks: [TextChunk]
        if isSSML {
            // Markup cannot be cut safely: it goes to the engine whole.
            let trimmed = text.trimmingWhitespace
            chunks = trimmed.isEmpty ? [] : [TextChunk(text: trimmed, scalarOffset: 0)]
        } else {
            chunks = TextChunker.chunks(of: TextNormalizer.normalize(text), maxScalars: NarrationPipeline.maxChunkScalars)
        }
        guard !chunks.isEmpty else { throw .emptyText }
        var summary = SpeechSummary(chunkCount: 0, sampleCount: 0, sampleRate: 0)
        try await NarrationPipeline(repository: repository, cachePolicy: .localFirst, firstChunkAlone: firstChunkAlone).run(chunks, voice: voice, isSSML: isSSML) { audio throws(SpeechError) in
            summary.chunkCount += 1
            summary.sampleCount += audio.samples.count
            summary.sampleRate = audio.sampleRate
            try await onAudio(audio)
        }
        return summary
    }
}

extension String {
    var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
