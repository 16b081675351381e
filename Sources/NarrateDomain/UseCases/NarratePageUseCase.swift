/// Narrates one page of a book, from a reference a user types: the book (a file, a library id
/// or a title), the page (a printed label, a number, or `#N`), and the voice (named, or chosen
/// by the book's language). What `narrate page` does, for any front end.
public protocol NarratePageUseCaseContract: Sendable {
    /// - Parameters:
    ///   - reference: a file path (added to the library on first use), a library id, or a title prefix.
    ///   - page: a printed page label, a 1-based index, or `#index`.
    ///   - voice: the voice asked for; without a name, the book's language chooses one.
    ///   - refresh: synthesize anew and replace the cached audio.
    /// - Throws: `NarrationError.book` (book or page not found…), `.speech` (unknown voice…),
    ///   `.engineFailedOnPage`.
    func execute(reference: String, page: String, voice: VoiceRequest, refresh: Bool) async throws(NarrationError) -> NarratedPage
}

/// A narrated page, with the book it is from and the voice that read it (and why).
public struct NarratedPage: Sendable {
    public var book: LibraryBook
    public var voice: VoiceChoice
    public var narration: PageNarration

    public init(book: LibraryBook, voice: VoiceChoice, narration: PageNarration) {
        self.book = book
        self.voice = voice
        self.narration = narration
    }
}

/// Narrates a page from a book reference: resolves the book, the page and its voice
/// (`ResolvePageSpeechUseCase`: named, or by the book's language, with the lexicons in force),
/// then narrates it through the cache (`NarratePageSpeechUseCase`). `narrate page` runs it; the
/// service's page audio runs the same two halves.
public struct NarratePageUseCase: NarratePageUseCaseContract {
    private let pages: any ResolvePageSpeechUseCaseContract
    private let narrator: any NarratePageSpeechUseCaseContract

    public init(pages: any ResolvePageSpeechUseCaseContract, narrator: any NarratePageSpeechUseCaseContract) {
        self.pages = pages
        self.narrator = narrator
    }

    /// The use case over the library's book lookup, the voice resolution and the speech path.
    public init(books: any GetBookDetailUseCaseContract, voices: any ResolveVoiceUseCaseContract, ttsRepository: any TTSRepositoryContract) {
        self.init(
            pages: ResolvePageSpeechUseCase(books: books, voices: ChooseVoiceUseCase(voices: voices)),
            narrator: NarratePageSpeechUseCase(ttsRepository: ttsRepository)
        )
    }

    public func execute(reference: String, page: String, voice request: VoiceRequest, refresh: Bool) async throws(NarrationError) -> NarratedPage {
        try await narrator.execute(try await pages.execute(reference: reference, page: page, voice: request), refresh: refresh)
    }
}
