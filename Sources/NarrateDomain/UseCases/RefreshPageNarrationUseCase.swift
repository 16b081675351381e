/// A page's narration synthesized anew, replacing the cached audio (remoteFirst); the cached
/// audio is used only if synthesis fails.
public protocol RefreshPageNarrationUseCaseContract: Sendable {
    func execute(bookPath: String, page: String, voice: VoiceProfile) async throws(NarrationError) -> PageNarration
}

public struct RefreshPageNarrationUseCase: RefreshPageNarrationUseCaseContract {
    private let narrator: PageNarrator

    public init(bookRepository: any BookSourceRepositoryContract, ttsRepository: any TTSRepositoryContract) {
        narrator = PageNarrator(bookRepository: bookRepository, ttsRepository: ttsRepository, cachePolicy: .remoteFirst)
    }

    public func execute(bookPath: String, page: String, voice: VoiceProfile) async throws(NarrationError) -> PageNarration {
        try await narrator.narrate(bookPath: bookPath, page: page, voice: voice)
    }
}
