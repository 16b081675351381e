import Synchronization
import Testing

@testable import NarrateDomain

@Suite struct NarratePageSpeechUseCaseTests {
    /// A value the mock's and the listener's closures write.
    final class Recorded<Value: Sendable>: Sendable {
        private let value: Mutex<Value>
        init(_ initial: Value) { value = Mutex(initial) }
        var current: Value { value.withLock { $0 } }
        func update(_ change: (inout Value) -> Void) { value.withLock { change(&$0) } }
    }

    let ttsRepositoryMock = TTSRepositoryMock()
    let sut: NarratePageSpeechUseCase
    /// How many requests the repository had been asked for when it answered the page's first chunk.
    let askedByFirstAnswer = Recorded<Int?>(nil)

    init() {
        sut = NarratePageSpeechUseCase(ttsRepository: ttsRepositoryMock)
        let firstChunk = NarrationPipeline.chunks(of: PageNarrationFixtures.longText, voice: PageNarrationFixtures.voice)[0].text
        // The first chunk takes a while, so the others would be asked for meanwhile.
        ttsRepositoryMock.delayForRequest = { $0.text == firstChunk ? .milliseconds(100) : nil }
        ttsRepositoryMock.audioForRequest = { [ttsRepositoryMock, askedByFirstAnswer] request in
            if request.text == firstChunk { askedByFirstAnswer.update { $0 = ttsRepositoryMock.requests.count } }
            return .success(.wordMarked(request.text))
        }
    }

    static var speech: PageSpeech {
        PageSpeech(
            book: LibraryBook.stub(pages: PageNarrationFixtures.pages), page: PageNarrationFixtures.pages[2],
            voice: VoiceChoice(profile: PageNarrationFixtures.voice, reason: .named)
        )
    }

    @Test("Given a page streamed to a listener, when it is narrated, then its first chunk is synthesized alone and every chunk comes in order")
    func streamedFirstChunkAlone() async throws {
        // Given
        let chunks = NarrationPipeline.chunks(of: PageNarrationFixtures.longText, voice: PageNarrationFixtures.voice)
        #expect(chunks.count > 2)
        let heard = Recorded<[Int]>([])

        // When
        let narrated = try await sut.execute(Self.speech, refresh: false) { audio in heard.update { $0.append(audio.samples.count) } }

        // Then
        #expect(askedByFirstAnswer.current == 1)
        #expect(ttsRepositoryMock.requests.count == chunks.count)
        #expect(heard.current.count == chunks.count)
        #expect(narrated.narration.audio.samples.count == heard.current.reduce(0, +))
    }

    @Test("Given a page narrated whole (no listener waiting), when it is narrated, then its chunks start together")
    func wholePageChunksTogether() async throws {
        // When
        _ = try await sut.execute(Self.speech, refresh: false)

        // Then
        #expect((askedByFirstAnswer.current ?? 0) > 1)
    }
}
