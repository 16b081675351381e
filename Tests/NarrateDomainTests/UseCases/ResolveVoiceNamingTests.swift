import Testing

@testable import NarrateDomain

/// Who may name a file as a voice: a remote client (`VoiceNaming.catalog`, the default) never;
/// the machine's own user when the front end says so (`.catalogOrFile`).
@Suite struct ResolveVoiceNamingTests {
    let repositoryMock = VoiceRepositoryMock()
    let sut: ResolveVoiceUseCase

    init() {
        repositoryMock.profileResult = .success(.narrator)
        sut = ResolveVoiceUseCase(repository: repositoryMock)
    }

    @Test("Given catalog naming, when a voice names a model file by path, then it is unknown by its last component and the repository is asked only for its stem")
    func catalogRefusesPaths() async throws {
        // Given
        repositoryMock.profileResult = .failure(.voiceNotFound("joe", suggestions: ["en_US-joe-medium"]))

        // When / Then
        await #expect(throws: SpeechError.voiceNotFound("joe.onnx", suggestions: ["en_US-joe-medium"])) {
            _ = try await sut.choose(name: "../../../../some/dir/joe.onnx", language: nil, overrides: VoiceOverrides(), naming: .catalog)
        }
        #expect(repositoryMock.requestedProfileNames == ["joe"])
        #expect(repositoryMock.lastRequestedNaming == .catalog)
    }

    @Test("Given catalog naming, when the stem of a refused path is an installed voice, then that voice is the suggestion")
    func suggestsTheInstalledName() async throws {
        // When / Then
        await #expect(throws: SpeechError.voiceNotFound("en_US-joe-medium.onnx", suggestions: ["en_US-joe-medium"])) {
            _ = try await sut.choose(name: "/voices/en_US-joe-medium.onnx", language: nil, overrides: VoiceOverrides(), naming: .catalog)
        }
    }

    @Test("Given catalog naming, when the name holds a NUL or is 10 KB long, then it is unknown and nothing is looked up", arguments: [
        "joe\u{0}", String(repeating: "x", count: 10_240),
    ])
    func catalogRefusesGarbage(name: String) async throws {
        // When / Then
        await #expect(throws: SpeechError.voiceNotFound(VoiceNameRule.shown(name), suggestions: [])) {
            _ = try await sut.execute(name: name, language: nil, overrides: VoiceOverrides())
        }
        #expect(repositoryMock.profileCallCount == 0)
    }

    @Test("Given catalog naming by default, when a chosen voice names a path, then ChooseVoiceUseCase refuses it too")
    func chooseVoiceDefaultsToCatalog() async throws {
        // Given
        let choose = ChooseVoiceUseCase(voices: sut)
        repositoryMock.profileResult = .failure(.voiceNotFound("zero", suggestions: []))

        // When / Then
        await #expect(throws: SpeechError.voiceNotFound("zero", suggestions: [])) {
            _ = try await choose.execute(VoiceRequest(name: "/dev/zero"), reading: nil)
        }
    }

    @Test("Given file naming (the local user), when a voice names a model by path, then the repository is asked for that path with the permission")
    func localUserMayNameFiles() async throws {
        // When
        let profile = try await ChooseVoiceUseCase(voices: sut).execute(VoiceRequest(name: "voices/joe.onnx", naming: .catalogOrFile), reading: nil).profile

        // Then
        #expect(profile == .narrator)
        #expect(repositoryMock.lastRequestedProfileName == "voices/joe.onnx")
        #expect(repositoryMock.lastRequestedNaming == .catalogOrFile)
    }

    @Test("Given catalog naming, when a catalog name is given, then the repository looks it up in the catalog alone")
    func catalogNamesPassThrough() async throws {
        // When
        _ = try await sut.execute(name: "en_US-joe-medium", language: nil, overrides: VoiceOverrides())

        // Then
        #expect(repositoryMock.lastRequestedProfileName == "en_US-joe-medium")
        #expect(repositoryMock.lastRequestedNaming == .catalog)
    }
}
