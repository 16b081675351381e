/// A page of a book and the voice that reads it, from references a user types, without
/// synthesizing: what a front end needs to name (or look up) a page's audio before making it.
/// `NarratePageUseCase` starts with it, so a page's voice and lexicons are the same whichever
/// front end asks.
public protocol ResolvePageSpeechUseCaseContract: Sendable {
    /// - Parameters:
    ///   - reference: a file path (added to the library on first use), a library id, or a title prefix.
    ///   - page: a printed page label, a 1-based index, or `#index`.
    ///   - voice: the voice asked for; without a name, the book's language chooses one.
    /// - Throws: `NarrationError.book` (book or page not found…), `.speech` (unknown voice…).
    func execute(reference: String, page: String, voice: VoiceRequest) async throws(NarrationError) -> PageSpeech
}

/// Finds the book, then the page, then chooses the voice (`ChooseVoiceUseCase`).
public struct ResolvePageSpeechUseCase: ResolvePageSpeechUseCaseContract {
    private let books: any GetBookDetailUseCaseContract
    private let voices: any ChooseVoiceUseCaseContract

    public init(books: any GetBookDetailUseCaseContract, voices: any ChooseVoiceUseCaseContract) {
        self.books = books
        self.voices = voices
    }

    public func execute(reference: String, page: String, voice request: VoiceRequest) async throws(NarrationError) -> PageSpeech {
        let book: LibraryBook
        do {
            book = try await books.execute(reference: reference)
        } catch {
            throw .book(error)
        }
        guard let found = PageSelector.select(page, in: book.book.pages) else {
            throw .book(.pageNotFound(page: page, pageCount: book.book.pages.count))
        }
        do {
            return PageSpeech(book: book, page: found, voice: try await voices.execute(request, reading: book.book))
        } catch {
            throw .speech(error)
        }
    }
}
