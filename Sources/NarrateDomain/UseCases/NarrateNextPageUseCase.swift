import struct Foundation.Date

/// Narrates the page after the saved reading progress (the first page when there is none),
/// hands it over, and only then saves the new progress: a narration that could not be
/// delivered does not move the reader on.
public protocol NarrateNextPageUseCaseContract: Sendable {
    /// - Parameter deliver: receives the narration (e.g. writes it to a file); progress is
    ///   saved only when it returns.
    /// - Throws: `NarrationError.book(.endOfBook)` after the last page, book, speech and delivery errors.
    func execute(
        book: LibraryBook,
        voice: VoiceProfile,
        deliver: (PageNarration) async throws(NarrationError) -> Void
    ) async throws(NarrationError) -> PageNarration
}

/// Narrates the page after the saved reading progress, then saves the new progress.
public struct NarrateNextPageUseCase: NarrateNextPageUseCaseContract {
    private let bookRepository: any BookRepositoryContract
    private let narrator: PageNarrator
    private let clock: @Sendable () -> Date

    public init(bookRepository: any BookRepositoryContract, ttsRepository: any TTSRepositoryContract, clock: @escaping @Sendable () -> Date) {
        self.bookRepository = bookRepository
        narrator = PageNarrator(ttsRepository: ttsRepository, cachePolicy: .localFirst)
        self.clock = clock
    }

    public func execute(
        book: LibraryBook,
        voice: VoiceProfile,
        deliver: (PageNarration) async throws(NarrationError) -> Void
    ) async throws(NarrationError) -> PageNarration {
        let pages = book.book.pages
        let nextIndex = (book.progress?.pageIndex ?? 0) + 1
        guard pages.indices.contains(nextIndex - 1) else {
            throw .book(.endOfBook(title: book.book.metadata.title, pageCount: pages.count))
        }
        let narration = try await narrator.narrate(pages[nextIndex - 1], of: book.book, voice: voice)
        try await deliver(narration)
        do {
            try await bookRepository.updateProgress(bookID: book.id, progress: ReadingProgress(pageIndex: nextIndex, updatedAt: clock()))
        } catch {
            throw .book(error)
        }
        return narration
    }
}
