/// Narrates a page already resolved (`ResolvePageSpeechUseCase`: the book, the page and the
/// voice with its lexicons) through the cache, and flushes the cache. The second half of
/// `NarratePageUseCase`; the service's page audio runs it on the page it has just resolved for
/// its entity tag, so nothing is looked up twice.
public protocol NarratePageSpeechUseCaseContract: Sendable {
    /// - Parameter refresh: synthesize anew and replace the cached audio.
    /// - Throws: `NarrationError.speech`, `.engineFailedOnPage`.
    func execute(_ speech: PageSpeech, refresh: Bool) async throws(NarrationError) -> NarratedPage

    /// As `execute(_:refresh:)`, handing each chunk's audio to `onChunk` as it comes, in order:
    /// what a page streamed while it is narrated plays from.
    func execute(_ speech: PageSpeech, refresh: Bool, onChunk: @escaping @Sendable (SpeechAudio) async -> Void) async throws(NarrationError) -> NarratedPage
}

/// Narrates a resolved page: its chunks through the TTS repository, concatenated.
public struct NarratePageSpeechUseCase: NarratePageSpeechUseCaseContract {
    private let ttsRepository: any TTSRepositoryContract

    public init(ttsRepository: any TTSRepositoryContract) {
        self.ttsRepository = ttsRepository
    }

    public func execute(_ speech: PageSpeech, refresh: Bool) async throws(NarrationError) -> NarratedPage {
        try await narrate(speech, refresh: refresh, onChunk: nil)
    }

    public func execute(_ speech: PageSpeech, refresh: Bool, onChunk: @escaping @Sendable (SpeechAudio) async -> Void) async throws(NarrationError) -> NarratedPage {
        try await narrate(speech, refresh: refresh, onChunk: onChunk)
    }

    private func narrate(_ speech: PageSpeech, refresh: Bool, onChunk: (@Sendable (SpeechAudio) async -> Void)?) async throws(NarrationError) -> NarratedPage {
        let narrator = PageNarrator(ttsRepository: ttsRepository, cachePolicy: refresh ? .remoteFirst : .localFirst)
        let narration = try await narrator.narrate(speech.page, of: speech.book.book, voice: speech.voice.profile, cast: speech.cast, onChunk: onChunk)
        await ttsRepository.flush()
        return NarratedPage(book: speech.book, voice: speech.voice, narration: narration)
    }
}
