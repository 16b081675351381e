import Testing

@testable import NarrateDomain

@Suite struct ResolvePageSpeechUseCaseTests {
    static let pages = (1...3).map { Page.stub(index: $0, label: "p\($0)", text: "Page  number \($0).") }
    static let book = LibraryBook.stub(id: 4, title: "Three Pages", pages: pages)
    static let choice = VoiceChoice(profile: VoiceProfile(voice: "en-gb"), reason: .named)

    let booksMock = GetBookDetailUseCaseMock()
    let voicesMock = ChooseVoiceUseCaseMock()
    let sut: ResolvePageSpeechUseCase

    init() {
        sut = ResolvePageSpeechUseCase(books: booksMock, voices: voicesMock)
    }

    @Test("A reference, a page label and a voice request give the book, the page and the voice chosen for that book")
    func resolves() async throws {
        // Given
        booksMock.result = .success(Self.book)
        voicesMock.result = .success(Self.choice)
        let request = VoiceRequest(name: "en-gb")

        // When
        let speech = try await sut.execute(reference: "4", page: "p2", voice: request)

        // Then
        #expect(speech.book.id == Self.book.id)
        #expect(speech.page == Self.pages[1])
        #expect(speech.voice == Self.choice)
        #expect(voicesMock.calls == [.init(request: request, bookTitle: "Three Pages")])
        // What a rendering is keyed by: the page's text as it goes to the engine, whole.
        #expect(speech.speechRequest == SpeechRequest(text: "Page number 2.", voice: Self.choice.profile))
    }

    @Test("A page past the end is a book error naming the page count, and no voice is chosen")
    func pagePastTheEnd() async throws {
        // Given
        booksMock.result = .success(Self.book)

        // When / Then
        await #expect(throws: NarrationError.book(.pageNotFound(page: "9", pageCount: 3))) {
            try await sut.execute(reference: "4", page: "9", voice: VoiceRequest())
        }
        #expect(voicesMock.calls.isEmpty)
    }

    @Test("A book that is not found is a book error; a voice that is not found is a speech error")
    func errors() async throws {
        // Given
        booksMock.result = .failure(.bookNotFound(reference: "x"))

        // When / Then
        await #expect(throws: NarrationError.book(.bookNotFound(reference: "x"))) {
            try await sut.execute(reference: "x", page: "1", voice: VoiceRequest())
        }

        // Given
        booksMock.result = .success(Self.book)
        voicesMock.result = .failure(.voiceNotFound("zz", suggestions: []))

        // When / Then
        await #expect(throws: NarrationError.speech(.voiceNotFound("zz", suggestions: []))) {
            try await sut.execute(reference: "4", page: "1", voice: VoiceRequest(name: "zz"))
        }
    }
}
