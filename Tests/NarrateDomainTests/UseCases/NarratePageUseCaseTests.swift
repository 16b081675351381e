import Testing

@testable import NarrateDomain

@Suite struct NarratePageUseCaseTests {
    static let dutchBook: LibraryBook = {
        var book = LibraryBook.stub(id: 7, title: "Ontboezemingen", pages: PageNarrationFixtures.pages)
        book.book.metadata.language = "nl"
        return book
    }()

    let bookRepositoryMock = BookRepositoryMock()
    let sourceRepositoryMock = BookSourceRepositoryMock()
    let voiceRepositoryMock = VoiceRepositoryMock()
    let ttsRepositoryMock = TTSRepositoryMock()
    let sut: NarratePageUseCase

    init() {
        ttsRepositoryMock.audioForRequest = { .success(.wordMarked($0.text)) }
        sut = NarratePageUseCase(
            books: GetBookDetailUseCase(bookRepository: bookRepositoryMock, sourceRepository: sourceRepositoryMock),
            voices: ResolveVoiceUseCase(repository: voiceRepositoryMock),
            ttsRepository: ttsRepositoryMock
        )
    }

    @Test("A book reference and a page label give that page, read by the book's language's voice, and the cache is flushed")
    func narratesPage() async throws {
        // Given a Dutch book in the library and an engine that speaks Dutch
        bookRepositoryMock.getBookByIDResult = .success(Self.dutchBook)
        voiceRepositoryMock.voicesResult = .success([Voice(name: "Dutch", identifier: "nl", languages: ["nl"])])

        // When
        let narrated = try await sut.execute(reference: "7", page: "2", voice: VoiceRequest(overrides: VoiceOverrides(rate: 200)), refresh: false)

        // Then
        #expect(narrated.book.id == Self.dutchBook.id)
        #expect(narrated.narration.page == PageNarrationFixtures.pages[3])
        #expect(narrated.voice == VoiceChoice(profile: VoiceProfile(voice: "nl", rate: 200), reason: .language("nl")))
        #expect(ttsRepositoryMock.lastRequest == SpeechRequest(text: "The last page.", voice: VoiceProfile(voice: "nl", rate: 200)))
        #expect(ttsRepositoryMock.cachePolicies == [.localFirst])
        #expect(ttsRepositoryMock.flushCount == 1)
    }

    @Test("refresh asks the engine first (remoteFirst); a named voice is used as named")
    func refreshAndNamedVoice() async throws {
        // Given
        bookRepositoryMock.getBookByIDResult = .success(Self.dutchBook)
        voiceRepositoryMock.profileResult = .success(.narrator)

        // When
        let narrated = try await sut.execute(reference: "7", page: "#1", voice: VoiceRequest(name: "narrator"), refresh: true)

        // Then
        #expect(narrated.voice.reason == .named)
        #expect(ttsRepositoryMock.cachePolicies == [.remoteFirst])
    }

    @Test("A book that is not found is a book error, and nothing is synthesized")
    func bookNotFound() async throws {
        // Given
        bookRepositoryMock.getBookByIDResult = .success(nil)

        // When / Then
        await #expect(throws: NarrationError.book(.bookNotFound(reference: "9"))) {
            try await sut.execute(reference: "9", page: "1", voice: VoiceRequest(), refresh: false)
        }
        #expect(ttsRepositoryMock.requests.isEmpty)
    }

    @Test("A page past the end is a book error naming the page count")
    func pagePastTheEnd() async throws {
        // Given
        bookRepositoryMock.getBookByIDResult = .success(Self.dutchBook)
        voiceRepositoryMock.voicesResult = .success([])
        voiceRepositoryMock.profileResult = .success(.narrator)

        // When / Then
        await #expect(throws: NarrationError.book(.pageNotFound(page: "99", pageCount: 4))) {
            try await sut.execute(reference: "7", page: "99", voice: VoiceRequest(), refresh: false)
        }
    }
}
