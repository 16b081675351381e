import Testing

@testable import NarrateDomain

/// A book whose pages have printed labels (`i`, `ii`) before the numbered ones, and one page
/// long enough to need several engine chunks.
enum PageNarrationFixtures {
    static let voice = VoiceProfile(voice: "en-gb", rate: 160)
    static let longText = TextFixtures.longText(paragraphs: 3, sentences: 12)
    static let pages = [
        Page(index: 1, label: "i", text: "Preface in one sentence."),
        Page(index: 2, label: "ii", text: "A second short page."),
        Page(index: 3, label: "1", text: longText),
        Page(index: 4, label: "2", text: "The last page."),
    ]
    static let book = Book.stub(pages: pages)

    static func words(_ text: String) -> [String] {
        text.split(whereSeparator: \.isWhitespace).map(String.init)
    }
}

@Suite struct GetPageNarrationUseCaseTests {
    let ttsRepositoryMock: TTSRepositoryMock
    let sut: GetPageNarrationUseCase

    init() {
        ttsRepositoryMock = TTSRepositoryMock()
        ttsRepositoryMock.audioForRequest = { .success(.wordMarked($0.text)) }
        sut = GetPageNarrationUseCase(ttsRepository: ttsRepositoryMock)
    }

    @Test("The page is chosen by its printed label before its index")
    func choosesPageByLabel() async throws {
        // When
        let narration = try await sut.execute(book: PageNarrationFixtures.book, page: "2", voice: PageNarrationFixtures.voice)

        // Then
        #expect(narration.page == PageNarrationFixtures.pages[3])
        #expect(narration.pageCount == 4)
        #expect(ttsRepositoryMock.lastRequest == SpeechRequest(text: "The last page.", voice: PageNarrationFixtures.voice))
    }

    @Test("A page is chosen by its index when no label matches, and by #index always")
    func choosesPageByIndex() async throws {
        // When
        let byIndex = try await sut.execute(book: PageNarrationFixtures.book, page: "3", voice: PageNarrationFixtures.voice)
        let byHash = try await sut.execute(book: PageNarrationFixtures.book, page: "#2", voice: PageNarrationFixtures.voice)

        // Then
        #expect(byIndex.page.index == 3)
        #expect(byHash.page == PageNarrationFixtures.pages[1])
    }

    @Test("Every chunk is asked for cache first (localFirst)")
    func usesLocalFirst() async throws {
        // When
        _ = try await sut.execute(book: PageNarrationFixtures.book, page: "1", voice: PageNarrationFixtures.voice)

        // Then
        #expect(ttsRepositoryMock.synthesizeCallCount >= 3)
        #expect(ttsRepositoryMock.cachePolicies.allSatisfy { $0 == .localFirst })
        #expect(ttsRepositoryMock.requests.allSatisfy { $0.voice == PageNarrationFixtures.voice && !$0.isSSML })
        #expect(ttsRepositoryMock.requests.allSatisfy { $0.text.unicodeScalars.count <= NarrationPipeline.maxChunkScalars })
    }

    @Test("Chunk audio is concatenated with word marks moved by the preceding chunks' samples and text")
    func concatenatesChunks() async throws {
        // Given
        let text = PageNarrationFixtures.longText
        let chunks = TextChunker.chunks(of: text, maxScalars: NarrationPipeline.maxChunkScalars)

        // When
        let narration = try await sut.execute(book: PageNarrationFixtures.book, page: "1", voice: PageNarrationFixtures.voice)

        // Then
        let audio = narration.audio
        let words = PageNarrationFixtures.words(text)
        #expect(chunks.count >= 3)
        #expect(audio.sampleRate == 22_050)
        #expect(audio.samples == chunks.flatMap { SpeechAudio.wordMarked($0.text).samples })
        #expect(audio.wordMarks.map(\.sampleOffset) == words.indices.map { $0 * 10 })
        #expect(audio.wordMarks.map { TextFixtures.scalars(of: text, from: $0.textOffset, length: $0.textLength) } == words)
    }

    @Test("A page past the end throws pageNotFound naming the page count, without synthesizing")
    func pagePastEndThrows() async throws {
        // When / Then
        await #expect(throws: NarrationError.book(.pageNotFound(page: "5", pageCount: 4))) {
            _ = try await sut.execute(book: PageNarrationFixtures.book, page: "5", voice: PageNarrationFixtures.voice)
        }
        #expect(ttsRepositoryMock.synthesizeCallCount == 0)
        #expect(NarrationError.book(.pageNotFound(page: "5", pageCount: 4)).description.contains("4 pages"))
    }

    @Test("A TTS repository error is thrown as NarrationError.speech")
    func ttsRepositoryErrorIsThrown() async throws {
        // Given
        let failure = SpeechError.cacheFailed(.writeFailed(path: "/cache", reason: "disk full"))
        ttsRepositoryMock.audioForRequest = nil
        ttsRepositoryMock.result = .failure(failure)

        // When / Then
        await #expect(throws: NarrationError.speech(failure)) {
            _ = try await sut.execute(book: PageNarrationFixtures.book, page: "1", voice: PageNarrationFixtures.voice)
        }
    }

    @Test("An out-of-range voice throws NarrationError.speech without synthesizing")
    func invalidVoiceThrows() async throws {
        // Given
        let voice = VoiceProfile(voice: "en-us", pitch: 120)

        // When / Then
        await #expect(throws: NarrationError.speech(.parameterOutOfRange(name: "pitch", value: 120, range: 0...99))) {
            _ = try await sut.execute(book: PageNarrationFixtures.book, page: "1", voice: voice)
        }
        #expect(ttsRepositoryMock.synthesizeCallCount == 0)
    }

    @Test("A page with no text throws NarrationError.speech(.emptyText), without synthesizing")
    func emptyPageThrows() async throws {
        // Given
        let book = Book.stub(pages: [Page(index: 1, label: "1", text: " \n\n ")])

        // When / Then
        await #expect(throws: NarrationError.speech(.emptyText)) {
            _ = try await sut.execute(book: book, page: "1", voice: PageNarrationFixtures.voice)
        }
        #expect(ttsRepositoryMock.synthesizeCallCount == 0)
    }
}
