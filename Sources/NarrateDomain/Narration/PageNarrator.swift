/// The path shared by Get and Refresh page narration: find the page, narrate its chunks,
/// concatenate them with word marks moved to page offsets.
struct PageNarrator: Sendable {
    let ttsRepository: any TTSRepositoryContract
    let cachePolicy: CachePolicy

    func narrate(book: Book, page reference: String, voice requested: VoiceProfile, cast: VoiceCast? = nil) async throws(NarrationError) -> PageNarration {
        guard let page = PageSelector.select(reference, in: book.pages) else {
            throw .book(.pageNotFound(page: reference, pageCount: book.pages.count))
        }
        return try await narrate(page, of: book, voice: requested, cast: cast)
    }

    /// - Parameter onChunk: each chunk's audio as it comes, in order, its word marks at page
    ///   offsets and its samples after the chunks before it (for a player that starts on the first).
    ///   With it, the first chunk is synthesized alone (no other chunk takes a core from it), as
    ///   a streamed speech request's is: the listener waits on it.
    /// - Parameter cast: who reads the page's narration and each of its quotations
    ///   (`CastScript`), its speakers found in the page; nil for `voice` alone.
    func narrate(
        _ page: Page, of book: Book, voice requested: VoiceProfile, cast: VoiceCast? = nil, onChunk: (@Sendable (SpeechAudio) async -> Void)? = nil
    ) async throws(NarrationError) -> PageNarration {
        let chunks: [VoicedChunk]
        do {
            if let cast {
                let cast = try cast.mapVoices { $0.reading(book) }.validated()
                chunks = CastScript.chunks(of: page.text, cast: cast, analysis: DialogueAnalyzer.analyze(page.text))
            } else {
                let voice = try requested.reading(book).validated()
                chunks = NarrationPipeline.chunks(of: page.text, voice: voice).map { VoicedChunk(chunk: $0, voice: voice) }
            }
        } catch { throw .speech(error) }
        guard !chunks.isEmpty else { throw .speech(.emptyText) }
        var combined = SpeechAudio(sampleRate: 0, samples: [], wordMarks: [])
        do {
            let pipeline = NarrationPipeline(repository: ttsRepository, cachePolicy: cachePolicy, firstChunkAlone: onChunk != nil)
            try await pipeline.run(chunks) { audio throws(SpeechError) in
                if let mismatch = NarrationPipeline.rateMismatch(audio.sampleRate, after: combined.sampleRate, voice: requested) { throw mismatch }
                let offset = combined.samples.count
                combined.sampleRate = audio.sampleRate
                combined.samples.append(contentsOf: audio.samples)
                combined.wordMarks.append(contentsOf: audio.wordMarks.map { $0.shifted(text: 0, samples: offset) })
                await onChunk?(audio)
            }
        } catch {
            switch error {
            case .engineFailed, .audioTooLong: throw .engineFailedOnPage(page: page.label, error)
            default: throw .speech(error)
            }
        }
        return PageNarration(page: page, pageCount: book.pages.count, audio: combined)
    }
}
