import Testing

@testable import NarrateDomain

@Suite struct ResolveVoicePiperTests {
    static let joe = VoiceProfile(voice: "en-us", piper: PiperVoiceSettings(model: "/voices/en_US-joe-medium.onnx"))
    static let thorsten = VoiceProfile(voice: "de", piper: PiperVoiceSettings(model: "/voices/de_DE-thorsten-medium.onnx"))

    let repositoryMock = VoiceRepositoryMock()

    init() {
        repositoryMock.voicesResult = .success([
            Voice(name: "deutsch", identifier: "de", languages: ["de"], preset: VoiceProfile(voice: "de", rate: 160)),
            Voice(name: "en_US-joe-medium", identifier: "/voices/en_US-joe-medium.onnx", languages: ["en-us", "en"], preset: Self.joe,
                  piper: PiperVoiceInfo(model: "/voices/en_US-joe-medium.onnx", quality: "medium", speakers: 1, sampleRate: 22_050)),
            Voice(name: "de_DE-thorsten-medium", identifier: "/voices/de_DE-thorsten-medium.onnx", languages: ["de-de", "de"], preset: Self.thorsten,
                  piper: PiperVoiceInfo(model: "/voices/de_DE-thorsten-medium.onnx", quality: "medium", speakers: 1, sampleRate: 22_050)),
            Voice(name: "French (France)", identifier: "roa/fr", languages: ["fr-fr", "fr"]),
        ])
        repositoryMock.profileResult = .success(.narrator)
    }

    @Test("A book's language picks an installed Piper voice for it before a preset, and says why")
    func languagePicksPiperVoice() async throws {
        // When
        let german = try await ResolveVoiceUseCase(repository: repositoryMock).choose(name: nil, language: "de", overrides: VoiceOverrides())
        let english = try await ResolveVoiceUseCase(repository: repositoryMock).choose(name: nil, language: "en-GB", overrides: VoiceOverrides())

        // Then
        #expect(german.profile == Self.thorsten)
        #expect(german.summary == "voice de_DE-thorsten-medium (the book's language: de; an installed Piper voice)")
        #expect(english.profile == Self.joe)
        #expect(english.reason == .language("en-gb"))
        #expect(repositoryMock.profileCallCount == 0)
    }

    @Test("Without a Piper voice for the language, eSpeak's voice speaks it as before")
    func withoutPiperVoiceESpeakSpeaks() async throws {
        // When
        let french = try await ResolveVoiceUseCase(repository: repositoryMock).choose(name: nil, language: "fr", overrides: VoiceOverrides())

        // Then
        #expect(french.profile == VoiceProfile(voice: "fr"))
        #expect(french.profile.piper == nil)
    }

    @Test("--rate and the Piper settings are checked against their ranges")
    func piperSettingsAreChecked() async throws {
        // Given
        var loud = Self.joe
        loud.piper?.noiseScale = 11
        var speaker = Self.joe
        speaker.piper?.speaker = -1

        // When / Then
        #expect(throws: SpeechError.parameterOutOfRange(name: "noise scale", value: 11, range: 0...10)) { _ = try loud.validated() }
        #expect(throws: SpeechError.parameterOutOfRange(name: "speaker", value: -1, range: 0...9_999)) { _ = try speaker.validated() }
        #expect(Self.joe.displayName == "en_US-joe-medium")
    }
}
