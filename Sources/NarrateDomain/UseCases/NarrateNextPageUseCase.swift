import struct Foundation.Date

/// Narrates the page after the saved reading progress (the first page when there is none),
/// hands it over, and only then saves the new progress: a narration that could not be
/// delivered does not move the reader on.
public protocol NarrateNextPageUseCaseContract: Sendable {
    /// - Parameters:
    ///   - reference: a file path (added to the library on first use), a library id, or a title prefix.
    ///   - voice: the voice asked for; without a name, the book's language chooses one.
    ///   - restart: start again from the first page, whatever the saved progress says.
    ///   - deliver: receives the narrated page (e.g. writes it to a file); progress is saved
    ///     only when it returns.
    /// - Throws: `NarrationError.book(.endOfBook)` after the last page, book, speech and delivery errors.
    func execute(
        reference: String,
        voice: VoiceRequest,
        restart: Bool,
        deliver: (NarratedPage) async throws(NarrationError) -> Void
    ) async throws(NarrationError) -> NarratedPage
}

/// Narrates the page after the saved reading progress, then saves the new progress.
public struct NarrateNextPageUseCase: NarrateNextPageUseCaseContract {
    private let books: any GetBookDetailUseCaseContract
    private let voices: any ChooseVoiceUseCaseContract
    private let bookRepository: any BookRepositoryContract
    private let narrator: PageNarrator
    private let clock: @Sendable () -> Date

    public init(
        books: any GetBookDetailUseCaseContract, voices: any ChooseVoiceUseCaseContract, bookRepository: any BookRepositoryContract,
        ttsRepository: any TTSRepositoryContract, clock: @escaping @Sendable () -> Date
    ) {
        self.books = books
        self.voices = voices
        self.bookRepository = bookRepository
        narrator = PageNarrator(ttsRepository: ttsRepository, cachePolicy: .localFirst)
        self.clock = clock
    }

    public func execute(
        reference: String,
        voice request: VoiceRequest,
        restart: Bool,
        deliver: (NarratedPage) async throws(NarrationError) -> Void
    ) async throws(NarrationError) -> NarratedPage {
        let book: LibraryBook
        do {
            book = try await books.execute(reference: reference)
        } catch {
            throw .book(error)
        }
        let pages = book.book.pages
        let nextIndex = (restart ? 0 : book.progress?.pageIndex ?? 0) + 1
        guard pages.indices.contains(nextIndex - 1) else {
            throw .book(.endOfBook(title: book.book.metadata.title, pageCount: pages.count))
        }
        let choice: VoiceChoice
        do {
            choice = try await voices.execute(request, reading: book.book)
        } catch {
            throw .speech(error)
        }
        let narration = try await narrator.narrate(pages[nextIndex - 1], of: book.book, voice: choice.profile)
        let narrated = NarratedPage(book: book, voice: choice, narration: narration)
        try await deliver(narrated)
        do {
            try await bookRepository.updateProgress(bookID: book.id, progress: ReadingProgress(pageIndex: nextIndex, updatedAt: clock()))
        } catch {
            throw .book(error)
        }
        return narrated
    }
}
