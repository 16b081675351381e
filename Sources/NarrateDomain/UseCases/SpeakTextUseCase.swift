/// Speaks a text of any length, delivering its audio chunk by chunk.
public protocol SpeakTextUseCaseContract: Sendable {
    /// Synthesizes the chunks of `text` in order (cache first). `onAudio` receives each chunk's
    /// audio as soon as it is ready; its word marks carry offsets into `text.text` (the
    /// normalized text), sample offsets relative to the chunk.
    /// - Throws: `SpeechError.emptyText` for a text with nothing to say, `pauseTooLong` or
    ///   `textTooLong` for one past its bounds (before anything is synthesized), and any speech error.
    func execute(
        text: SpeechText,
        voice: VoiceProfile,
        onAudio: (SpeechAudio) async throws(SpeechError) -> Void
    ) async throws(SpeechError) -> SpeechSummary

    /// As `execute(text:voice:onAudio:)`, with each chunk as a `SpeechPiece`: a clip of the
    /// cache entry where the engine stored a miss there, for an output that copies it from the
    /// cache (`narrate say -o`); otherwise its audio.
    func execute(
        text: SpeechText,
        voice: VoiceProfile,
        onPiece: (SpeechPiece) async throws(SpeechError) -> Void
    ) async throws(SpeechError) -> SpeechSummary

    /// As `execute(text:voice:onPiece:)`, read by `cast`: the narration in the narrator's voice,
    /// each quotation in its speaker's (`CastScript`; plain text only, SSML is read by the
    /// narrator alone).
    func execute(
        text: SpeechText,
        cast: VoiceCast,
        onPiece: (SpeechPiece) async throws(SpeechError) -> Void
    ) async throws(SpeechError) -> SpeechSummary
}

extension SpeakTextUseCaseContract {
    /// Every chunk as audio (for a use case that keeps no clips).
    public func execute(
        text: SpeechText,
        voice: VoiceProfile,
        onPiece: (SpeechPiece) async throws(SpeechError) -> Void
    ) async throws(SpeechError) -> SpeechSummary {
        try await execute(text: text, voice: voice) { audio throws(SpeechError) in try await onPiece(.audio(audio)) }
    }

    /// Speaks `text` (SSML when `isSSML`), prepared as `SpeechText` does.
    public func execute(
        text: String,
        voice: VoiceProfile,
        isSSML: Bool,
        onAudio: (SpeechAudio) async throws(SpeechError) -> Void
    ) async throws(SpeechError) -> SpeechSummary {
        try await execute(text: SpeechText(text, isSSML: isSSML), voice: voice, onAudio: onAudio)
    }
}

/// Speaks a text of any length: cut into chunks at sentence boundaries, synthesized in parallel
/// through the cache, and handed to the caller in order.
public struct SpeakTextUseCase: SpeakTextUseCaseContract {
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
        text: SpeechText,
        voice: VoiceProfile,
        onAudio: (SpeechAudio) async throws(SpeechError) -> Void
    ) async throws(SpeechError) -> SpeechSummary {
        try await speak(text, voice: voice, asClips: false) { piece throws(SpeechError) in
            guard case let .audio(audio) = piece else { return }  // no clips unless asked for
            try await onAudio(audio)
        }
    }

    public func execute(
        text: SpeechText,
        voice: VoiceProfile,
        onPiece: (SpeechPiece) async throws(SpeechError) -> Void
    ) async throws(SpeechError) -> SpeechSummary {
        try await speak(text, voice: voice, asClips: true, consume: onPiece)
    }

    public func execute(
        text: SpeechText,
        cast: VoiceCast,
        onPiece: (SpeechPiece) async throws(SpeechError) -> Void
    ) async throws(SpeechError) -> SpeechSummary {
        try await speak(text, voice: cast.narrator, cast: cast, asClips: true, consume: onPiece)
    }

    private func speak(
        _ text: SpeechText, voice: VoiceProfile, cast: VoiceCast? = nil, asClips: Bool, consume: (SpeechPiece) async throws(SpeechError) -> Void
    ) async throws(SpeechError) -> SpeechSummary {
        let voice = try voice.validated()
        try bounds.check(text, voice: voice)
        guard !text.isEmpty else { throw .emptyText }
        let chunks: [VoicedChunk]
        if let cast, !text.isSSML {
            chunks = CastScript.chunks(of: text.text, cast: try cast.validated(), analysis: DialogueAnalyzer.analyze(text.text))
        } else {
            chunks = text.chunks(for: voice).map { VoicedChunk(chunk: $0, voice: voice) }
        }
        var summary = SpeechSummary(chunkCount: 0, sampleCount: 0, sampleRate: 0)
        let pipeline = NarrationPipeline(repository: repository, cachePolicy: .localFirst, firstChunkAlone: firstChunkAlone)
        try await pipeline.runPieces(chunks, isSSML: text.isSSML, asClips: asClips) { piece throws(SpeechError) in
            if let mismatch = NarrationPipeline.rateMismatch(piece.sampleRate, after: summary.sampleRate, voice: voice) { throw mismatch }
            summary.chunkCount += 1
            summary.sampleCount += piece.sampleCount
            summary.sampleRate = piece.sampleRate
            try await consume(piece)
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
