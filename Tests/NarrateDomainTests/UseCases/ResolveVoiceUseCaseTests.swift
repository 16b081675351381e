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
        let profile = try await sut.execute(name: nil, overrides: VoiceOverrides())

        // Then
        #expect(profile == .narrator)
        #expect(repositoryMock.profileCallCount == 1)
        #expect(repositoryMock.lastRequestedProfileName == "narrator")
    }

    @Test("A named voice without overrides is returned as the repository gives it")
    func namedVoiceWithoutOverrides() async throws {
        // When
        let profile = try await sut.execute(name: "calm", overrides: VoiceOverrides())

        // Then
        #expect(profile == Self.calm)
        #expect(repositoryMock.lastRequestedProfileName == "calm")
    }

    @Test("Overrides are laid over the preset; parameters not given keep the preset's values")
    func overridesAreLaidOverPreset() async throws {
        // When
        let rateOnly = try await sut.execute(name: "calm", overrides: VoiceOverrides(rate: 220))
        let all = try await sut.execute(name: "calm", overrides: VoiceOverrides(rate: 80, pitch: 99, volume: 0, wordGap: 1_000))

        // Then
        #expect(rateOnly == VoiceProfile(voice: "en-gb", rate: 220, pitch: 40, volume: 90, wordGap: 2))
        #expect(all == VoiceProfile(voice: "en-gb", rate: 80, pitch: 99, volume: 0, wordGap: 1_000))
    }

    @Test("An out-of-range override throws parameterOutOfRange")
    func outOfRangeOverrideThrows() async throws {
        // When / Then
        await #expect(throws: SpeechError.parameterOutOfRange(name: "volume", value: 201, range: 0...200)) {
            _ = try await sut.execute(name: "calm", overrides: VoiceOverrides(volume: 201))
        }
        await #expect(throws: SpeechError.parameterOutOfRange(name: "rate", value: 79, range: 80...450)) {
            _ = try await sut.execute(name: nil, overrides: VoiceOverrides(rate: 79))
        }
    }

    @Test("An unknown voice's error, with its suggestions, is propagated")
    func unknownVoiceIsPropagated() async throws {
        // Given
        let failure = SpeechError.voiceNotFound("narator", suggestions: ["narrator"])
        repositoryMock.profileResult = .failure(failure)

        // When / Then
        await #expect(throws: failure) {
            _ = try await sut.execute(name: "narator", overrides: VoiceOverrides(rate: 200))
        }
    }
}
