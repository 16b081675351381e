import Testing

@testable import NarrateDomain

/// With no voice named, the book's language picks an installed Kokoro voice first, then a Piper
/// voice, then eSpeak's, and says which.
@Suite struct ResolveVoiceKokoroTests {
    static let heart = VoiceProfile(
        voice: "en-us", kokoro: KokoroVoiceSettings(model: "/voices/kokoro/kokoro.onnx", styles: [.init(name: "af_heart", pack: "/voices/kokoro/voices/af_heart.bin", weight: 1)], language: "en-us")
    )
    static let joe = VoiceProfile(voice: "en-us", piper: PiperVoiceSettings(model: "/voices/en_US-joe-medium.onnx"))
    static let thorsten = VoiceProfile(voice: "de", piper: PiperVoiceSettings(model: "/voices/de_DE-thorsten-medium.onnx"))

    let repositoryMock = VoiceRepositoryMock()

    init() {
        repositoryMock.voicesResult = .success([
            Voice(name: "en_US-joe-medium", identifier: "/voices/en_US-joe-medium.onnx", languages: ["en-us", "en"], preset: Self.joe,
                  piper: PiperVoiceInfo(model: "/voices/en_US-joe-medium.onnx", quality: "medium", speakers: 1, sampleRate: 22_050)),
            Voice(name: "de_DE-thorsten-medium", identifier: "/voices/de_DE-thorsten-medium.onnx", languages: ["de-de", "de"], preset: Self.thorsten,
                  piper: PiperVoiceInfo(model: "/voices/de_DE-thorsten-medium.onnx", quality: "medium", speakers: 1, sampleRate: 22_050)),
            Voice(name: "af_heart", identifier: "/voices/kokoro/voices/af_heart.bin", languages: ["en-us"], gender: .female, preset: Self.heart,
                  kokoro: KokoroVoiceInfo(model: "/voices/kokoro/kokoro.onnx", pack: "/voices/kokoro/voices/af_heart.bin", language: "en-US")),
        ])
        repositoryMock.profileResult = .success(.narrator)
    }

    @Test("Given a Kokoro and a Piper voice for the book's language, when no voice is named, then the Kokoro voice speaks, and the summary says so")
    func kokoroBeforePiper() async throws {
        // When
        let english = try await ResolveVoiceUseCase(repository: repositoryMock).choose(name: nil, language: "en-US", overrides: VoiceOverrides())
        let german = try await ResolveVoiceUseCase(repository: repositoryMock).choose(name: nil, language: "de", overrides: VoiceOverrides())

        // Then
        #expect(english.profile == Self.heart)
        #expect(english.summary == "voice af_heart (the book's language: en-us; an installed Kokoro voice)")
        #expect(german.profile == Self.thorsten, "no Kokoro voice speaks German here: the Piper voice does")
        #expect(repositoryMock.profileCallCount == 0)
    }

    @Test("A Kokoro profile is a neural voice: its first sentence is a chunk alone, the others packed (its engine batches and times them), as a Piper voice's")
    func kokoroChunksAsPiper() {
        // Given a text of three sentences
        let text = "First sentence here. Second one. Third one."
        let items = [ExportItem(number: 1, fileStem: "one", title: "One", pages: [Page(index: 0, label: "1", text: text)], chapters: [])]

        // When it is cut for a Kokoro voice and for a Piper voice
        let kokoro = NarrationPipeline.chunks(of: text, voice: Self.heart).map(\.text)
        let piper = NarrationPipeline.chunks(of: text, voice: Self.joe).map(\.text)

        // Then both give the first sentence alone and the others together, in a book too
        #expect(Self.heart.isNeural)
        #expect(kokoro == ["First sentence here.", "Second one. Third one."])
        #expect(piper == kokoro)
        #expect(ExportChunker.chunks(of: items, voice: Self.heart).map(\.text) == kokoro)
    }
}
