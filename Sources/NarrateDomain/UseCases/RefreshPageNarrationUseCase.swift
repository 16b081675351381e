/// A page's narration synthesized anew, replacing the cached audio (remoteFirst); the cached
/// audio is used only if synthesis fails.
public protocol RefreshPageNarrationUseCaseContract: Sendable {
    /// - Parameters:
    ///   - book: the book (from the library or a parser).
    ///   - page: a printed page label, a 1-based index, or `#index`.
    /// - Throws: `NarrationError.book(.pageNotFound)` naming the page count, and speech errors.
    func execute(book: Book, page: String, voice: VoiceProfile) async throws(NarrationError) -> PageNarration
}

/// Narrates a page anew, replacing its cached audio (`remoteFirst`: the cache only if synthesis fails).
public struct RefreshPageNarrationUseCase: RefreshPageNarrationUseCaseContract {
    private let narrator: PageNarrator

    public init(ttsRepository: any TTSRepositoryContract) {
        narrator = PageNarrator(ttsRepository: ttsRepository, cachePolicy: .remoteFirst)
    }

    public func execute(book: Book, page: String, voice: VoiceProfile) async throws(NarrationError) -> PageNarration {
        try await narrator.narrate(book: book, page: page, voice: voice)
    }
}
