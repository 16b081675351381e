import struct Foundation.Date
import Synchronization
import Testing

@testable import NarrateDomain

@Suite struct NarrateNextPageUseCaseTests {
    static let now = Date(timeIntervalSince1970: 1_750_000_000)
    static let voice = VoiceProfile(voice: "en-gb", rate: 160)
    static let pages = (1...5).map { Page.stub(index: $0, label: "p\($0)", text: "This is page number \($0).") }

    static func book(progress pageIndex: Int?) -> LibraryBook {
        .stub(id: 8, title: "Five Pages", pages: pages, progress: pageIndex.map { ReadingProgress(pageIndex: $0, updatedAt: Date(timeIntervalSince1970: 0)) })
    }

    static let request = VoiceRequest(name: "en-gb", overrides: VoiceOverrides(rate: 160))

    let booksMock = GetBookDetailUseCaseMock()
    let voicesMock = ChooseVoiceUseCaseMock()
    let bookRepositoryMock: BookRepositoryMock
    let ttsRepositoryMock: TTSRepositoryMock
    let sut: NarrateNextPageUseCase

    init() {
        bookRepositoryMock = BookRepositoryMock()
        bookRepositoryMock.updateProgressResult = .success(())
        ttsRepositoryMock = TTSRepositoryMock()
        ttsRepositoryMock.audioForRequest = { .success(.wordMarked($0.text)) }
        voicesMock.result = .success(VoiceChoice(profile: Self.voice, reason: .named))
        sut = NarrateNextPageUseCase(
            books: booksMock, voices: voicesMock, bookRepository: bookRepositoryMock, ttsRepository: ttsRepositoryMock, clock: { Self.now }
        )
    }

    /// Runs the use case on the book with its progress at `pageIndex`.
    func next(progress pageIndex: Int?, restart: Bool = false, deliver: (NarratedPage) async throws(NarrationError) -> Void = { _ throws(NarrationError) in }) async throws(NarrationError) -> PageNarration {
        booksMock.result = .success(Self.book(progress: pageIndex))
        return try await sut.execute(reference: "8", voice: Self.request, restart: restart, deliver: deliver).narration
    }

    @Test("Without progress, the first page is narrated and delivered, then progress 1 is saved")
    func firstPageWithoutProgress() async throws {
        // Given
        let delivered = Mutex<[PageNarration]>([])

        // When
        let narration = try await next(progress: nil) { narration throws(NarrationError) in
            delivered.withLock { $0.append(narration.narration) }
        }

        // Then
        #expect(narration.page == Self.pages[0])
        #expect(narration.pageCount == 5)
        #expect(narration.audio == .wordMarked(Self.pages[0].text))
        #expect(delivered.withLock { $0 } == [narration])
        #expect(ttsRepositoryMock.lastRequest == SpeechRequest(text: Self.pages[0].text, voice: Self.voice))
        #expect(ttsRepositoryMock.cachePolicies == [.localFirst])
        #expect(bookRepositoryMock.lastProgressCall == .init(bookID: BookID(rawValue: 8), progress: ReadingProgress(pageIndex: 1, updatedAt: Self.now)))
    }

    @Test("With progress at page 3, page 4 is narrated and progress 4 is saved")
    func pageAfterProgress() async throws {
        // When
        let narration = try await next(progress: 3) { _ throws(NarrationError) in }

        // Then
        #expect(narration.page == Self.pages[3])
        #expect(ttsRepositoryMock.lastRequest?.text == Self.pages[3].text)
        #expect(bookRepositoryMock.updateProgressCallCount == 1)
        #expect(bookRepositoryMock.lastProgressCall?.progress == ReadingProgress(pageIndex: 4, updatedAt: Self.now))
    }

    @Test("After the last page, endOfBook is thrown without synthesizing, delivering or saving")
    func endOfBookThrows() async throws {
        // Given
        let deliverCount = Mutex(0)

        // When / Then
        await #expect(throws: NarrationError.book(.endOfBook(title: "Five Pages", pageCount: 5))) {
            _ = try await next(progress: 5) { _ throws(NarrationError) in
                deliverCount.withLock { $0 += 1 }
            }
        }
        #expect(ttsRepositoryMock.synthesizeCallCount == 0)
        #expect(deliverCount.withLock { $0 } == 0)
        #expect(bookRepositoryMock.updateProgressCallCount == 0)
    }

    @Test("Progress is saved only after deliver has returned")
    func progressSavedAfterDeliver() async throws {
        // Given
        let savedDuringDelivery = Mutex<Int?>(nil)
        let repository = bookRepositoryMock

        // When
        _ = try await next(progress: 1) { _ throws(NarrationError) in
            savedDuringDelivery.withLock { $0 = repository.updateProgressCallCount }
        }

        // Then
        #expect(savedDuringDelivery.withLock { $0 } == 0)
        #expect(bookRepositoryMock.updateProgressCallCount == 1)
    }

    @Test("When deliver throws, its error propagates and progress is not saved")
    func deliverErrorSavesNoProgress() async throws {
        // Given
        let failure = NarrationError.speech(.outputFailed(OutputError(path: "/out/page.wav", cause: .noSpace)))

        // When / Then
        await #expect(throws: failure) {
            _ = try await next(progress: 1) { _ throws(NarrationError) in
                throw failure
            }
        }
        #expect(ttsRepositoryMock.synthesizeCallCount == 1)
        #expect(bookRepositoryMock.updateProgressCallCount == 0)
    }

    @Test("A TTS error is thrown as NarrationError.speech, without delivering or saving progress")
    func ttsErrorSavesNoProgress() async throws {
        // Given
        let failure = SpeechError.synthesisFailed(code: 2, voice: "en-gb", textLength: 24)
        ttsRepositoryMock.audioForRequest = nil
        ttsRepositoryMock.result = .failure(failure)
        let deliverCount = Mutex(0)

        // When / Then
        await #expect(throws: NarrationError.speech(failure)) {
            _ = try await next(progress: nil) { _ throws(NarrationError) in
                deliverCount.withLock { $0 += 1 }
            }
        }
        #expect(deliverCount.withLock { $0 } == 0)
        #expect(bookRepositoryMock.updateProgressCallCount == 0)
    }

    @Test("An error saving progress is thrown as NarrationError.book")
    func progressErrorIsBookError() async throws {
        // Given
        bookRepositoryMock.updateProgressResult = .failure(.libraryFailed(reason: "read-only"))

        // When / Then
        await #expect(throws: NarrationError.book(.libraryFailed(reason: "read-only"))) {
            _ = try await next(progress: 2) { _ throws(NarrationError) in }
        }
        #expect(bookRepositoryMock.updateProgressCallCount == 1)
    }

    @Test("A voice that cannot be chosen throws NarrationError.speech without synthesizing or saving")
    func invalidVoiceThrows() async throws {
        // Given
        voicesMock.result = .failure(.parameterOutOfRange(name: "rate", value: 20, range: 80...450))

        // When / Then
        await #expect(throws: NarrationError.speech(.parameterOutOfRange(name: "rate", value: 20, range: 80...450))) {
            _ = try await next(progress: nil)
        }
        #expect(ttsRepositoryMock.synthesizeCallCount == 0)
        #expect(bookRepositoryMock.updateProgressCallCount == 0)
    }

    @Test("The reference finds the book, and the voice is chosen for that book from the request")
    func voiceChosenForTheBook() async throws {
        // When
        _ = try await next(progress: 1)

        // Then
        #expect(booksMock.references == ["8"])
        #expect(voicesMock.calls == [.init(request: Self.request, bookTitle: "Five Pages")])
    }

    @Test("restart narrates the first page whatever the saved progress, and saves progress 1")
    func restartStartsOver() async throws {
        // When
        let narration = try await next(progress: 4, restart: true)

        // Then
        #expect(narration.page == Self.pages[0])
        #expect(bookRepositoryMock.lastProgressCall?.progress == ReadingProgress(pageIndex: 1, updatedAt: Self.now))
    }

    @Test("A book that is not found is a book error, and no voice is chosen")
    func bookNotFound() async throws {
        // Given
        booksMock.result = .failure(.bookNotFound(reference: "8"))

        // When / Then
        await #expect(throws: NarrationError.book(.bookNotFound(reference: "8"))) {
            _ = try await sut.execute(reference: "8", voice: Self.request, restart: false) { _ throws(NarrationError) in }
        }
        #expect(voicesMock.calls.isEmpty)
        #expect(ttsRepositoryMock.synthesizeCallCount == 0)
    }
}
