import Testing

@testable import NarrateDomain

@Suite struct GetVoicesUseCaseTests {
    static let narrator = Voice(name: "narrator", identifier: "en-us", languages: ["en-us"], preset: .narrator)
    static let american = Voice(name: "English (America)", identifier: "gmw/en-US", languages: ["en-us", "en"])
    static let british = Voice(name: "English (Great Britain)", identifier: "gmw/en", languages: ["en-gb"])
    static let french = Voice(name: "French (France)", identifier: "roa/fr", languages: ["fr-fr", "fr"])
    static let oldFrench = Voice(name: "Old French", identifier: "roa/fro", languages: ["fro"])
    static let all = [narrator, american, british, french, oldFrench]

    let repositoryMock: VoiceRepositoryMock
    let sut: GetVoicesUseCase

    init() {
        repositoryMock = VoiceRepositoryMock()
        repositoryMock.voicesResult = .success(Self.all)
        sut = GetVoicesUseCase(repository: repositoryMock)
    }

    @Test("Without a language, every voice is returned in the repository's order", arguments: [nil, ""] as [String?])
    func returnsAllVoicesWithoutLanguage(language: String?) async throws {
        // When
        let voices = try await sut.execute(language: language)

        // Then
        #expect(voices == Self.all)
        #expect(repositoryMock.voicesCallCount == 1)
    }

    @Test("A language matches its regional variants: en matches en-us and en-gb")
    func languageMatchesRegions() async throws {
        // When
        let voices = try await sut.execute(language: "en")

        // Then
        #expect(voices == [Self.narrator, Self.american, Self.british])
    }

    @Test("A language does not match a longer code it is a prefix of: fr does not match fro")
    func languageDoesNotMatchLongerCode() async throws {
        // When
        let voices = try await sut.execute(language: "fr")

        // Then
        #expect(voices == [Self.french])
    }

    @Test("A regional code matches only that region, in any case")
    func regionalCodeMatchesExactly() async throws {
        // When
        let voices = try await sut.execute(language: "EN-GB")

        // Then
        #expect(voices == [Self.british])
    }

    @Test("A language no voice speaks gives no voices")
    func unknownLanguageGivesNothing() async throws {
        // When
        let voices = try await sut.execute(language: "xx")

        // Then
        #expect(voices.isEmpty)
    }

    @Test("Propagates the repository's error")
    func propagatesError() async throws {
        // Given
        repositoryMock.voicesResult = .failure(.engineUnavailable(reason: "no espeak-ng-data"))

        // When / Then
        await #expect(throws: SpeechError.engineUnavailable(reason: "no espeak-ng-data")) {
            _ = try await sut.execute(language: "en")
        }
    }
}
