import Testing

@testable import NarrateDomain

@Suite struct ResolveVoiceUseCaseTests {
    static let calm = VoiceProfile(voice: "en-gb", rate: 150, pitch: 40, volume: 90, wordGap: 2)

    let repositoryMock: VoiceRepositoryMock
    let sut: ResolveVoiceUseCase

    init() {
        repositoryMock = VoiceRepositoryMock()
        repositoryMock.profileResult = .success(Self.calm)
        sut = ResolveVoiceUseCase(repository: repositoryMock)
    }

    @Test("Without a name, the default preset narrator is asked for")
    func defaultPresetWhenNoName() async throws {
        // Given
        repositoryMock.profileResult = .success(.narrator)

        // When
        let profile = try await sut.execute(name: nil, language: nil, overrides: VoiceOverrides())

        // Then
        #expect(profile == .narrator)
        #expect(repositoryMock.profileCallCount == 1)
        #expect(repositoryMock.lastRequestedProfileName == "narrator")
    }

    @Test("A named voice without overrides is returned as the repository gives it")
    func namedVoiceWithoutOverrides() async throws {
        // When
        let profile = try await sut.execute(name: "calm", language: nil, overrides: VoiceOverrides())

        // Then
        #expect(profile == Self.calm)
        #expect(repositoryMock.lastRequestedProfileName == "calm")
    }

    @Test("Overrides are laid over the preset; parameters not given keep the preset's values")
    func overridesAreLaidOverPreset() async throws {
        // When
        let rateOnly = try await sut.execute(name: "calm", language: nil, overrides: VoiceOverrides(rate: 220))
        let all = try await sut.execute(name: "calm", language: nil, overrides: VoiceOverrides(rate: 80, pitch: 99, volume: 0, wordGap: 1_000))

        // Then
        #expect(rateOnly == VoiceProfile(voice: "en-gb", rate: 220, pitch: 40, volume: 90, wordGap: 2))
        #expect(all == VoiceProfile(voice: "en-gb", rate: 80, pitch: 99, volume: 0, wordGap: 1_000))
    }

    @Test("An out-of-range override throws parameterOutOfRange")
    func outOfRangeOverrideThrows() async throws {
        // When / Then
        await #expect(throws: SpeechError.parameterOutOfRange(name: "volume", value: 201, range: 0...200)) {
            _ = try await sut.execute(name: "calm", language: nil, overrides: VoiceOverrides(volume: 201))
        }
        await #expect(throws: SpeechError.parameterOutOfRange(name: "rate", value: 79, range: 80...450)) {
            _ = try await sut.execute(name: nil, language: nil, overrides: VoiceOverrides(rate: 79))
        }
    }

    @Test("An unknown voice's error, with its suggestions, is propagated")
    func unknownVoiceIsPropagated() async throws {
        // Given
        let failure = SpeechError.voiceNotFound("narator", suggestions: ["narrator"])
        repositoryMock.profileResult = .failure(failure)

        // When / Then
        await #expect(throws: failure) {
            _ = try await sut.execute(name: "narator", language: nil, overrides: VoiceOverrides(rate: 200))
        }
    }

    // MARK: - Default voice for a language

    static let narratorVoice = Voice(name: "narrator", identifier: "en-us", languages: ["en-us", "en"], preset: .narrator)
    static let lecteur = VoiceProfile(voice: "fr", rate: 165, pitch: 45)
    static let lecteurVoice = Voice(name: "lecteur", identifier: "fr", languages: ["fr-fr", "fr"], preset: lecteur)
    static let frenchEngine = Voice(name: "French (France)", identifier: "roa/fr", languages: ["fr-fr", "fr"])
    static let arabicEngine = Voice(name: "Arabic", identifier: "sem/ar", languages: ["ar"])
    static let britishEngine = Voice(name: "English (Great Britain)", identifier: "gmw/en", languages: ["en-gb", "en"])

    @Test("Without a name, a French text gets a French preset when the repository has one")
    func frenchPresetForFrench() async throws {
        // Given
        repositoryMock.voicesResult = .success([Self.narratorVoice, Self.lecteurVoice, Self.frenchEngine])

        // When
        let profile = try await sut.execute(name: nil, language: "fr", overrides: VoiceOverrides())

        // Then
        #expect(profile == Self.lecteur)
        #expect(repositoryMock.profileCallCount == 0)
    }

    @Test("Without a name, a French text gets the engine voice fr when there is no French preset")
    func frenchEngineVoiceForFrench() async throws {
        // Given
        repositoryMock.voicesResult = .success([Self.narratorVoice, Self.frenchEngine, Self.arabicEngine])

        // When
        let profile = try await sut.execute(name: nil, language: "fr", overrides: VoiceOverrides())

        // Then
        #expect(profile == VoiceProfile(voice: "fr"))
        #expect(repositoryMock.profileCallCount == 0)
    }

    @Test("Without a name, an Arabic text gets the engine voice ar, with overrides laid over it")
    func arabicEngineVoiceForArabic() async throws {
        // Given
        repositoryMock.voicesResult = .success([Self.narratorVoice, Self.frenchEngine, Self.arabicEngine])

        // When
        let plain = try await sut.execute(name: nil, language: "ar", overrides: VoiceOverrides())
        let faster = try await sut.execute(name: nil, language: "ar", overrides: VoiceOverrides(rate: 200))

        // Then
        #expect(plain == VoiceProfile(voice: "ar"))
        #expect(faster == VoiceProfile(voice: "ar", rate: 200))
    }

    @Test("Without a name, an English text gets the narrator preset when no Piper voice speaks English", arguments: ["en", "en-GB", "en_US"])
    func narratorForEnglish(language: String) async throws {
        // Given
        repositoryMock.voicesResult = .success([Self.narratorVoice, Self.britishEngine])
        repositoryMock.profileResult = .success(.narrator)

        // When
        let profile = try await sut.execute(name: nil, language: language, overrides: VoiceOverrides())

        // Then
        #expect(profile == .narrator)
        #expect(repositoryMock.lastRequestedProfileName == "narrator")
        #expect(repositoryMock.voicesCallCount == 1)
    }

    @Test("Without a name, a language no voice speaks gets the narrator preset")
    func narratorForUnknownLanguage() async throws {
        // Given
        repositoryMock.voicesResult = .success([Self.narratorVoice, Self.frenchEngine, Self.arabicEngine])
        repositoryMock.profileResult = .success(.narrator)

        // When
        let profile = try await sut.execute(name: nil, language: "tlh", overrides: VoiceOverrides())

        // Then
        #expect(profile == .narrator)
        #expect(repositoryMock.voicesCallCount == 1)
        #expect(repositoryMock.lastRequestedProfileName == "narrator")
    }

    @Test("A region tag falls back to its primary language: fr-CA gets the engine voice fr")
    func regionFallsBackToPrimaryLanguage() async throws {
        // Given
        repositoryMock.voicesResult = .success([Self.narratorVoice, Self.frenchEngine])

        // When
        let profile = try await sut.execute(name: nil, language: "fr-CA", overrides: VoiceOverrides())

        // Then
        #expect(profile == VoiceProfile(voice: "fr"))
    }

    @Test("A name wins over the language")
    func nameWinsOverLanguage() async throws {
        // Given
        repositoryMock.voicesResult = .success([Self.narratorVoice, Self.frenchEngine])

        // When
        let profile = try await sut.execute(name: "calm", language: "fr", overrides: VoiceOverrides())

        // Then
        #expect(profile == Self.calm)
        #expect(repositoryMock.lastRequestedProfileName == "calm")
        #expect(repositoryMock.voicesCallCount == 0)
    }

    @Test("An error listing the voices is propagated")
    func voicesErrorIsPropagated() async throws {
        // Given
        let failure = SpeechError.engineUnavailable(reason: "no espeak-ng-data")
        repositoryMock.voicesResult = .failure(failure)

        // When / Then
        await #expect(throws: failure) {
            _ = try await sut.execute(name: nil, language: "de", overrides: VoiceOverrides())
        }
    }
}

@Suite struct VoiceChoiceTests {
    let repositoryMock = VoiceRepositoryMock()

    @Test("A language written as a name (a Gutenberg header's 'Dutch') chooses that language's voice, and says so")
    func languageNameChoosesVoice() async throws {
        // Given an engine that speaks Dutch
        repositoryMock.voicesResult = .success([Voice(name: "Dutch", identifier: "nl", languages: ["nl"])])
        let sut = ResolveVoiceUseCase(repository: repositoryMock)

        // When the book's language is "Dutch"
        let choice = try await sut.choose(name: nil, language: "Dutch", overrides: VoiceOverrides())

        // Then the nl voice speaks, for that reason
        #expect(choice.profile == VoiceProfile(voice: "nl"))
        #expect(choice.reason == .language("nl"))
        #expect(choice.summary == "voice nl (the book's language: nl)")
    }

    @Test("A named voice, the default for English, and the default for a language no voice speaks each give their reason")
    func reasons() async throws {
        // Given
        repositoryMock.voicesResult = .success([])
        repositoryMock.profileResult = .success(.narrator)
        let sut = ResolveVoiceUseCase(repository: repositoryMock)

        // When
        let named = try await sut.choose(name: "narrator", language: "fr", overrides: VoiceOverrides())
        let english = try await sut.choose(name: nil, language: "en-GB", overrides: VoiceOverrides())
        let klingon = try await sut.choose(name: nil, language: "tlh", overrides: VoiceOverrides())

        // Then
        #expect(named.reason == .named)
        #expect(english.reason == .standard(unspokenLanguage: nil))
        #expect(klingon.reason == .standard(unspokenLanguage: "tlh"))
        #expect(klingon.summary.contains("no installed voice speaks the book's language, tlh"))
    }
}
