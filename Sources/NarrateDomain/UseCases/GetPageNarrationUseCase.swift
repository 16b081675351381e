/// A page's narration, from the audio cache where it is there (localFirst).
public protocol GetPageNarrationUseCaseContract: Sendable {
    /// - Parameters:
    ///   - book: the book (from the library or a parser).
    ///   - page: a printed page label, a 1-based index, or `#index`.
    /// - Throws: `NarrationError.book(.pageNotFound)` naming the page count, and speech errors.
    func execute(book: Book, page: String, voice: VoiceProfile) async throws(NarrationError) -> PageNarration
}

/// Narrates one page of a book already in hand, from the audio cache where it can (`localFirst`).
public struct GetPageNarrationUseCase: GetPageNarrationUseCaseContract {
    private let narrator: PageNarrator

    public init(ttsRepository: any TTSRepositoryContract) {
        narrator = PageNarrator(ttsRepository: ttsRepository, cachePolicy: .localFirst)
    }

    public func execute(book: Book, page: String, voice: VoiceProfile) async throws(NarrationError) -> PageNarration {
        try await narrator.narrate(book: book, page: page, voice: voice)
    }
}
