import Testing

@testable import NarrateDomain

@Suite struct ChooseVoiceUseCaseTests {
    static func lexicon(_ name: String) -> PronunciationLexicon {
        PronunciationLexicon(name: name, language: nil, digest: "digest-\(name)", entries: [])
    }

    static let mine = lexicon("mine.pls")
    static let presets = lexicon("preset.pls")
    static let books = lexicon("OEBPS/lexicon.pls")

    let voiceRepositoryMock = VoiceRepositoryMock()
    let sut: ChooseVoiceUseCase

    init() {
        sut = ChooseVoiceUseCase(voices: ResolveVoiceUseCase(repository: voiceRepositoryMock))
    }

    static func book(language: String?, lexicons: [PronunciationLexicon] = [books]) -> Book {
        var book = Book.stub()
        book.metadata.language = language
        book.lexicons = lexicons
        return book
    }

    @Test("A named voice reads a book with the caller's lexicons first, then the voice's, then the book's")
    func lexiconOrder() async throws {
        // Given a preset with a lexicon of its own
        voiceRepositoryMock.profileResult = .success(VoiceProfile(voice: "en-gb", lexicons: [Self.presets]))

        // When
        let choice = try await sut.execute(VoiceRequest(name: "reader", overrides: VoiceOverrides(rate: 200), lexicons: [Self.mine]), reading: Self.book(language: "en"))

        // Then
        #expect(choice.reason == .named)
        #expect(choice.profile == VoiceProfile(voice: "en-gb", rate: 200, lexicons: [Self.mine, Self.presets, Self.books]))
        #expect(voiceRepositoryMock.lastRequestedProfileName == "reader")
    }

    @Test("Without a name, the book's language chooses the voice, and the book's lexicons are in force")
    func bookLanguageChooses() async throws {
        // Given
        voiceRepositoryMock.voicesResult = .success([Voice(name: "Dutch", identifier: "nl", languages: ["nl"])])

        // When
        let choice = try await sut.execute(VoiceRequest(), reading: Self.book(language: "nl"))

        // Then
        #expect(choice == VoiceChoice(profile: VoiceProfile(voice: "nl", lexicons: [Self.books]), reason: .language("nl")))
    }

    @Test("Without a book, only the caller's and the voice's lexicons are in force")
    func noBook() async throws {
        // Given
        voiceRepositoryMock.profileResult = .success(VoiceProfile(voice: "en-us", lexicons: [Self.presets]))

        // When
        let choice = try await sut.execute(VoiceRequest(name: "en-us", lexicons: [Self.mine]), reading: nil)

        // Then
        #expect(choice.profile.lexicons == [Self.mine, Self.presets])
    }

    @Test("A profile that reads the book already is left as it is when it reads it again (one rule, applied once)")
    func readingIsIdempotent() {
        // Given
        let book = Self.book(language: "en")
        let profile = VoiceProfile(voice: "en-us").speaking([Self.mine], reading: book)

        // When
        let again = profile.reading(book)

        // Then
        #expect(again == profile)
        #expect(again.lexicons == [Self.mine, Self.books])
    }

    @Test("OpenAI's speed sets the rate on the voice chosen; one it cannot reach is an error naming the usable speeds")
    func speed() async throws {
        // Given a voice at 175 words a minute
        voiceRepositoryMock.profileResult = .success(VoiceProfile(voice: "en-us", rate: 175))

        // When
        let faster = try await sut.execute(VoiceRequest(name: "alloy", speed: 1.5), reading: nil)

        // Then
        #expect(faster.profile.rate == 263)
        await #expect(throws: SpeechError.speedOutOfRange(speed: 4.0, usable: 0.46...2.57, rate: 175)) {
            try await sut.execute(VoiceRequest(name: "alloy", speed: 4.0), reading: nil)
        }
    }

    @Test("An unknown voice is the voice repository's error, with its suggestions")
    func unknownVoice() async throws {
        // Given
        voiceRepositoryMock.profileResult = .failure(.voiceNotFound("en-uss", suggestions: ["en-us"]))

        // When / Then
        await #expect(throws: SpeechError.voiceNotFound("en-uss", suggestions: ["en-us"])) {
            try await sut.execute(VoiceRequest(name: "en-uss"), reading: Self.book(language: "en"))
        }
    }
}
