import Synchronization
import Testing

@testable import NarrateDomain

/// A `PhonemeRepositoryContract` answering `result` (a failure by default), recording requests.
final class PhonemeRepositoryMock: PhonemeRepositoryContract {
    private let state = Mutex<(result: Result<[PhonemizedSentence], SpeechError>, requests: [SpeechRequest])>(
        (.failure(.engineUnavailable(reason: "PhonemeRepositoryMock.result is not set")), [])
    )

    var result: Result<[PhonemizedSentence], SpeechError> {
        get { state.withLock { $0.result } }
        set { state.withLock { $0.result = newValue } }
    }

    var requests: [SpeechRequest] { state.withLock { $0.requests } }

    func phonemes(_ request: SpeechRequest) async throws(SpeechError) -> [PhonemizedSentence] {
        try state.withLock { state throws(SpeechError) in
            state.requests.append(request)
            return try state.result.get()
        }
    }
}

@Suite struct PhonemizeTextUseCaseTests {
    let repositoryMock = PhonemeRepositoryMock()

    @Test("The text is normalized before the engine reads it, and each sentence gets its text back")
    func sentencesGetTheirText() async throws {
        // Given
        repositoryMock.result = .success([
            PhonemizedSentence(textOffset: 0, textLength: 6, phonemes: "həlˈoʊ!", ids: [1, 0, 20, 0, 2]),
            PhonemizedSentence(textOffset: 7, textLength: 9, phonemes: "ɡʊdbˈaɪ.", ids: [1, 0, 66, 0, 2]),
        ])

        // When
        let sentences = try await PhonemizeTextUseCase(repository: repositoryMock).execute(text: "  Hello!   Good-bye.  ", voice: .narrator)

        // Then
        #expect(repositoryMock.requests.map(\.text) == ["Hello! Good-bye."])
        #expect(sentences.map(\.text) == ["Hello!", "Good-bye."])
        #expect(sentences[1].ids == [1, 0, 66, 0, 2])
    }

    @Test("An empty text is refused before the engine is asked")
    func emptyTextIsRefused() async throws {
        await #expect(throws: SpeechError.emptyText) {
            _ = try await PhonemizeTextUseCase(repository: repositoryMock).execute(text: " \n ", voice: .narrator)
        }
        #expect(repositoryMock.requests.isEmpty)
    }
}
