/// The path shared by Get and Refresh page narration: find the page, narrate its chunks,
/// concatenate them with word marks moved to page offsets.
struct PageNarrator: Sendable {
    let ttsRepository: any TTSRepositoryContract
    let cachePolicy: CachePolicy

    func narrate(book: Book, page reference: String, voice requested: VoiceProfile) async throws(NarrationError) -> PageNarration {
        guard let page = PageSelector.select(reference, in: book.pages) else {
            throw .book(.pageNotFound(page: reference, pageCount: book.pages.count))
        }
        return try await narrate(page, of: book, voice: requested)
    }

    /// - Parameter onChunk: each chunk's audio as it comes, in order, its word marks at page
    ///   offsets and its samples after the chunks before it (for a player that starts on the first).
    ///   With it, the first chunk is synthesized alone (no other chunk takes a core from it), as
    ///   a streamed speech request's is: the listener waits on it.
    func narrate(
        _ page: Page, of book: Book, voice requested: VoiceProfile, onChunk: (@Sendable (SpeechAudio) async -> Void)? = nil
    ) async throws(NarrationError) -> PageNarration {
        let voice: VoiceProfile
        do { voice = try requested.reading(book).validated() } catch { throw .speech(error) }
        let chunks = NarrationPipeline.chunks(of: page.text, voice: voice)
        guard !chunks.isEmpty else { throw .speech(.emptyText) }
        var combined = SpeechAudio(sampleRate: 0, samples: [], wordMarks: [])
        do {
            let pipeline = NarrationPipeline(repository: ttsRepository, cachePolicy: cachePolicy, firstChunkAlone: onChunk != nil)
            try await pipeline.run(chunks, voice: voice) { audio throws(SpeechError) in
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
