import Testing

@testable import NarrateDomain

@Suite struct RefreshPageNarrationUseCaseTests {
    let ttsRepositoryMock: TTSRepositoryMock
    let sut: RefreshPageNarrationUseCase

    init() {
        ttsRepositoryMock = TTSRepositoryMock()
        ttsRepositoryMock.audioForRequest = { .success(.wordMarked($0.text)) }
        sut = RefreshPageNarrationUseCase(ttsRepository: ttsRepositoryMock)
    }

    @Test("Every chunk is synthesized anew (remoteFirst)")
    func usesRemoteFirst() async throws {
        // When
        let narration = try await sut.execute(book: PageNarrationFixtures.book, page: "1", voice: PageNarrationFixtures.voice)

        // Then
        #expect(narration.page == PageNarrationFixtures.pages[2])
        #expect(narration.pageCount == 4)
        #expect(ttsRepositoryMock.synthesizeCallCount >= 3)
        #expect(ttsRepositoryMock.cachePolicies.allSatisfy { $0 == .remoteFirst })
    }

    @Test("Chunk audio is concatenated with word marks at page offsets")
    func concatenatesChunks() async throws {
        // Given
        let text = PageNarrationFixtures.longText
        let words = PageNarrationFixtures.words(text)

        // When
        let narration = try await sut.execute(book: PageNarrationFixtures.book, page: "#3", voice: PageNarrationFixtures.voice)

        // Then
        #expect(narration.audio.samples.count == words.count * 10)
        #expect(narration.audio.wordMarks.map(\.sampleOffset) == words.indices.map { $0 * 10 })
        #expect(narration.audio.wordMarks.map { TextFixtures.scalars(of: text, from: $0.textOffset, length: $0.textLength) } == words)
    }

    @Test("A page past the end throws pageNotFound naming the page count, without synthesizing")
    func pagePastEndThrows() async throws {
        // When / Then
        await #expect(throws: NarrationError.book(.pageNotFound(page: "#9", pageCount: 4))) {
            _ = try await sut.execute(book: PageNarrationFixtures.book, page: "#9", voice: PageNarrationFixtures.voice)
        }
        #expect(ttsRepositoryMock.synthesizeCallCount == 0)
    }

    @Test("A TTS repository error is thrown as NarrationError.speech")
    func ttsRepositoryErrorIsThrown() async throws {
        // Given
        let failure = SpeechError.synthesisFailed(code: 2, voice: "en-gb", textLength: 14)
        ttsRepositoryMock.audioForRequest = nil
        ttsRepositoryMock.result = .failure(failure)

        // When / Then
        await #expect(throws: NarrationError.speech(failure)) {
            _ = try await sut.execute(book: PageNarrationFixtures.book, page: "2", voice: PageNarrationFixtures.voice)
        }
    }
}
