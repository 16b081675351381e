/// Narrates text chunks in order through a TTS repository, keeping a few requests in flight.
///
/// The repository's engine synthesizes several chunks at once (one per worker process), and
/// while it works the previous chunk is stored in the cache and written out: four requests in
/// flight keep two cores busy. Results are delivered strictly in chunk order, and at most
/// `lookahead` chunks of audio wait in memory, so memory does not grow with the length of the
/// text.
struct NarrationPipeline: Sendable {
    /// Engine input is cut into pieces of at most this many Unicode scalars, at sentence boundaries.
    static let maxChunkScalars = 700

    /// The chunks `voice` is given `text` in, packed up to `maxChunkScalars`; a neural voice's
    /// first sentence alone (its audio comes sooner). A Kokoro chunk's sentences are batched
    /// together by its engine, as kokoro-onnx batches a text's (each run makes its own silence,
    /// so fewer runs cost less), and timed one by one from the model's durations.
    static func chunks(of text: String, voice: VoiceProfile) -> [TextChunk] {
        TextChunker.chunks(of: text, maxScalars: maxChunkScalars, firstSentenceAlone: voice.isNeural)
    }
    static let lookahead = 4

    let repository: any TTSRepositoryContract
    let cachePolicy: CachePolicy
    /// Whether the first chunk is synthesized alone, the others only once it is done: its
    /// audio comes sooner (no other chunk takes a core from it), for a listener waiting on the
    /// first sound; one chunk's worth of parallel work is given up.
    var firstChunkAlone = false

    /// Synthesizes `chunks` and hands each one's audio, in order, to `consume`, with word marks
    /// moved to the chunk's offset in the text.
    func run(
        _ chunks: [TextChunk],
        voice: VoiceProfile,
        isSSML: Bool = false,
        consume: (SpeechAudio) async throws(SpeechError) -> Void
    ) async throws(SpeechError) {
        try await runPieces(chunks, voice: voice, isSSML: isSSML, asClips: false) { piece throws(SpeechError) in
            guard case let .audio(audio) = piece else { return }  // no clips unless asked for
            try await consume(audio)
        }
    }

    /// As `run`, each chunk in its own voice (a cast's).
    func run(_ chunks: [VoicedChunk], consume: (SpeechAudio) async throws(SpeechError) -> Void) async throws(SpeechError) {
        try await runPieces(chunks, asClips: false) { piece throws(SpeechError) in
            guard case let .audio(audio) = piece else { return }
            try await consume(audio)
        }
    }

    /// The error for a chunk whose audio comes at `rate` after chunks at `previous` (a cast
    /// mixing Piper models of two sample rates), or nil when the rates agree.
    static func rateMismatch(_ rate: Int, after previous: Int, voice: VoiceProfile) -> SpeechError? {
        guard previous != 0, rate != previous else { return nil }
        return .voiceFailed(voice: voice.displayName, reason: "it speaks at \(rate) Hz and the cast's voices before it at \(previous) Hz; a cast's voices must share one sample rate")
    }

    /// As `run`, each chunk as a `SpeechPiece`. With `asClips`, the repository's `piece`
    /// (`.localFirst`): a clip of the cache entry where the engine stored it there, else the
    /// audio; without, always the audio (`synthesize` with the pipeline's policy).
    func runPieces(
        _ chunks: [TextChunk],
        voice: VoiceProfile,
        isSSML: Bool = false,
        asClips: Bool = true,
        consume: (SpeechPiece) async throws(SpeechError) -> Void
    ) async throws(SpeechError) {
        try await runPieces(chunks.map { VoicedChunk(chunk: $0, voice: voice) }, isSSML: isSSML, asClips: asClips, consume: consume)
    }

    /// As `runPieces`, each chunk in its own voice (a cast's).
    func runPieces(
        _ chunks: [VoicedChunk],
        isSSML: Bool = false,
        asClips: Bool = true,
        consume: (SpeechPiece) async throws(SpeechError) -> Void
    ) async throws(SpeechError) {
        let repository = repository
        let cachePolicy = cachePolicy
        try await run(chunks, isSSML: isSSML, produce: { request throws(SpeechError) in
            asClips ? try await repository.piece(request) : .audio(try await repository.synthesize(request, cachePolicy: cachePolicy))
        }, consume: consume)
    }

    private func run(
        _ chunks: [VoicedChunk],
        isSSML: Bool,
        produce: @escaping @Sendable (SpeechRequest) async throws(SpeechError) -> SpeechPiece,
        consume: (SpeechPiece) async throws(SpeechError) -> Void
    ) async throws(SpeechError) {
        var pending: [Task<Result<SpeechPiece, SpeechError>, Never>] = []
        var next = 0
        func startNext() {
            let chunk = chunks[next].chunk
            let request = SpeechRequest(text: chunk.text, voice: chunks[next].voice, isSSML: isSSML)
            next += 1
            pending.append(Task {
                do throws(SpeechError) {
                    return .success(try await produce(request).shifted(text: chunk.scalarOffset))
                } catch {
                    return .failure(error)
                }
            })
        }
        let opening = firstChunkAlone ? 1 : Self.lookahead
        while next < chunks.count, pending.count < opening { startNext() }
        while !pending.isEmpty {
            let result = await pending.removeFirst().value
            do throws(SpeechError) {
                let piece = try result.get()
                while next < chunks.count, pending.count < Self.lookahead { startNext() }
                try await consume(piece)
            } catch {
                // Nothing may still write to the cache once the caller has the error.
                for task in pending { task.cancel() }
                for task in pending { _ = await task.value }
                throw error
            }
        }
    }
}
