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

/// The voice a caller asks for: a preset or engine voice name (or `nil` for the book's
/// language), parameters laid over it, and pronunciation lexicons in front of the voice's own.
public struct VoiceRequest: Sendable, Hashable {
    public var name: String?
    public var overrides: VoiceOverrides
    public var lexicons: [PronunciationLexicon]

    public init(name: String? = nil, overrides: VoiceOverrides = VoiceOverrides(), lexicons: [PronunciationLexicon] = []) {
        self.name = name
        self.overrides = overrides
        self.lexicons = lexicons
    }
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

/// Narrates a page from a book reference: finds the book, chooses the voice (named, or by the
/// book's language), narrates the page through the cache, and flushes the cache.
public struct NarratePageUseCase: NarratePageUseCaseContract {
    private let books: any GetBookDetailUseCaseContract
    private let voices: any ResolveVoiceUseCaseContract
    private let ttsRepository: any TTSRepositoryContract

    public init(books: any GetBookDetailUseCaseContract, voices: any ResolveVoiceUseCaseContract, ttsRepository: any TTSRepositoryContract) {
        self.books = books
        self.voices = voices
        self.ttsRepository = ttsRepository
    }

    public func execute(reference: String, page: String, voice request: VoiceRequest, refresh: Bool) async throws(NarrationError) -> NarratedPage {
        let book: LibraryBook
        do {
            book = try await books.execute(reference: reference)
        } catch {
            throw .book(error)
        }
        var choice: VoiceChoice
        do {
            choice = try await voices.choose(name: request.name, language: book.book.metadata.language, overrides: request.overrides)
        } catch {
            throw .speech(error)
        }
        choice.profile.lexicons = request.lexicons + choice.profile.lexicons
        let narrator = PageNarrator(ttsRepository: ttsRepository, cachePolicy: refresh ? .remoteFirst : .localFirst)
        let narration = try await narrator.narrate(book: book.book, page: page, voice: choice.profile)
        await ttsRepository.flush()
        return NarratedPage(book: book, voice: choice, narration: narration)
    }
}
