import NarrateDomain
import Testing

@Suite struct CastNarrationTests {
    let narrator = VoiceProfile(voice: "en-us")
    let emma = VoiceProfile(voice: "en-us+f4")

    @Test("a text read by a cast asks the repository for each utterance in its own voice, in order, and a Piper rate that differs stops it with one error")
    func speakWithCast() async throws {
        // Given
        let repository = TTSRepositoryMock()
        repository.audioForRequest = { request in .success(.stub(sampleRate: request.voice.voice == "odd" ? 16_000 : 22_050)) }
        let speak = SpeakTextUseCase(repository: repository)
        let cast = VoiceCast(narrator: narrator, dialogue: narrator, members: [CastMember(names: ["Emma"], voice: emma)])
        let text = SpeechText("\u{201C}I cannot agree,\u{201D} said Emma.")

        // When
        var pieces = 0
        let summary = try await speak.execute(text: text, cast: cast) { _ in pieces += 1 }

        // Then
        #expect(repository.requests.map(\.text) == ["I cannot agree,", "said Emma."])
        #expect(repository.requests.map(\.voice) == [emma, narrator])
        #expect(summary.chunkCount == 2)
        #expect(pieces == 2)

        // And: voices of two sample rates
        let mixed = VoiceCast(narrator: narrator, dialogue: narrator, members: [CastMember(names: ["Emma"], voice: VoiceProfile(voice: "odd"))])
        await #expect(throws: SpeechError.self) { _ = try await speak.execute(text: text, cast: mixed) { _ in } }
    }

    @Test("a cast file's voices are chosen as --voice is, with the caller's parameters; a missing dialogue voice is the narrator's")
    func resolveFile() async throws {
        // Given
        let chooser = ChooseVoiceUseCaseMock()
        chooser.result = .success(VoiceChoice(profile: emma, reason: .named))
        let voices = GetVoicesUseCaseMock()
        let resolve = ResolveCastUseCase(chooser: chooser, voices: voices)
        let file = CastFile(narrator: "en-us", characters: [CastFileCharacter(name: "Emma", voice: "en-us+f4", aliases: ["Miss Woodhouse"])])
        var request = VoiceRequest()
        request.overrides.rate = 200

        // When
        let cast = try await resolve.execute(.file(file), narrator: VoiceChoice(profile: narrator, reason: .standard(unspokenLanguage: nil)), voice: request, reading: nil, text: "")

        // Then: the narrator's own voice is not chosen again
        #expect(chooser.calls.map(\.request.name) == ["en-us+f4"])
        #expect(chooser.calls.first?.request.overrides.rate == 200)
        #expect(cast.narrator == narrator)
        #expect(cast.dialogue == narrator)
        #expect(cast.members == [CastMember(names: ["Emma", "Miss Woodhouse"], voice: emma)])
        #expect(voices.languages.isEmpty)
    }

    @Test("a voice of another engine than the narrator's is refused, naming it")
    func otherEngine() async throws {
        // Given
        let chooser = ChooseVoiceUseCaseMock()
        let kokoro = KokoroVoiceSettings(model: "kokoro.onnx", styles: [.init(name: "af_heart", pack: "voices.bin", weight: 1)], language: "en-us")
        chooser.result = .success(VoiceChoice(profile: VoiceProfile(voice: "en-us", kokoro: kokoro), reason: .named))
        let resolve = ResolveCastUseCase(chooser: chooser, voices: GetVoicesUseCaseMock())
        let file = CastFile(characters: [CastFileCharacter(name: "Emma", voice: "af_heart")])

        // When / Then
        await #expect {
            _ = try await resolve.execute(.file(file), narrator: VoiceChoice(profile: narrator, reason: .named), voice: VoiceRequest(), reading: nil, text: "")
        } throws: { error in
            "\(error)".contains("af_heart") && "\(error)".contains("one engine")
        }
    }

    @Test("auto proposes a cast from the text's characters: eSpeak variants of the narrator's language")
    func auto() async throws {
        // Given
        let chooser = ChooseVoiceUseCaseMock()
        chooser.result = .success(VoiceChoice(profile: emma, reason: .named))
        let resolve = ResolveCastUseCase(chooser: chooser, voices: GetVoicesUseCaseMock())
        let text = "\u{201C}Good morning,\u{201D} said Miss Woodhouse. \u{201C}Good morning,\u{201D} said Mrs. Weston."

        // When
        let cast = try await resolve.execute(.auto, narrator: VoiceChoice(profile: narrator, reason: .named), voice: VoiceRequest(), reading: nil, text: text)

        // Then
        #expect(chooser.calls.map(\.request.name) == ["en-us+f1", "en-us+f4"])
        #expect(cast.members.map(\.names.first) == ["Miss Woodhouse", "Mrs. Weston"])
    }
}
