/// A page's narration, from the audio cache where it is there (localFirst).
public protocol GetPageNarrationUseCaseContract: Sendable {
    /// - Parameters:
    ///   - bookPath: the book file.
    ///   - page: a printed page label, a 1-based index, or `#index`.
    /// - Throws: `NarrationError.book(.pageNotFound)` naming the page count, and book or speech errors.
    func execute(bookPath: String, page: String, voice: VoiceProfile) async throws(NarrationError) -> PageNarration
}

public struct GetPageNarrationUseCase: GetPageNarrationUseCaseContract {
    private let narrator: PageNarrator

    public init(bookRepository: any BookSourceRepositoryContract, ttsRepository: any TTSRepositoryContract) {
        narrator = PageNarrator(bookRepository: bookRepository, ttsRepository: ttsRepository, cachePolicy: .localFirst)
    }

    public func execute(bookPath: String, page: String, voice: VoiceProfile) async throws(NarrationError) -> PageNarration {
        try await narrator.narrate(bookPath: bookPath, page: page, voice: voice)
    }
}
