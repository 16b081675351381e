import NarrateDomain
import Testing

@testable import NarrateData

@Suite struct AudioCacheKeyTests {
    static let engine = EngineDescriptor(id: "espeak-ng", version: "1.52.0", sampleRate: 22_050)
    static let request = SpeechRequest(text: "Call me Ishmael.", voice: VoiceProfile(voice: "en-us", rate: 175, pitch: 50, volume: 100, wordGap: 0))

    @Test("The same request and engine give the same key")
    func sameInputSameKey() {
        // When
        let first = AudioCacheKey(request: Self.request, engine: Self.engine)
        let second = AudioCacheKey(request: Self.request, engine: Self.engine)

        // Then
        #expect(first == second)
        #expect(first.hex == second.hex)
    }

    @Test("The hex is 64 lowercase hexadecimal characters, the digest's bytes in order")
    func hexIsLowercase64() {
        // When
        let key = AudioCacheKey(request: Self.request, engine: Self.engine)

        // Then
        #expect(key.hex.count == 64)
        #expect(key.hex.allSatisfy { "0123456789abcdef".contains($0) })
        #expect(key.description == key.hex)
        #expect(AudioCacheKey(bytes: [0x00, 0x0f, 0xa0, 0xff] + Array(repeating: 0x12, count: 28)).hex == "000fa0ff" + String(repeating: "12", count: 28))
    }

    @Test("Changing anything that changes the samples changes the key", arguments: [
        ("voice", Self.request.with { $0.voice.voice = "en-gb" }, Self.engine),
        ("rate", Self.request.with { $0.voice.rate = 176 }, Self.engine),
        ("pitch", Self.request.with { $0.voice.pitch = 51 }, Self.engine),
        ("volume", Self.request.with { $0.voice.volume = 99 }, Self.engine),
        ("word gap", Self.request.with { $0.voice.wordGap = 1 }, Self.engine),
        ("ssml", Self.request.with { $0.isSSML = true }, Self.engine),
        ("text", Self.request.with { $0.text = "Call me Ishmael!" }, Self.engine),
        ("engine version", Self.request, EngineDescriptor(id: "espeak-ng", version: "1.51.1", sampleRate: 22_050)),
        ("sample rate", Self.request, EngineDescriptor(id: "espeak-ng", version: "1.52.0", sampleRate: 16_000)),
        ("engine", Self.request, EngineDescriptor(id: "remote-tts", version: "1.52.0", sampleRate: 22_050)),
    ])
    func anyChangeChangesKey(field: String, request: SpeechRequest, engine: EngineDescriptor) {
        // Given
        let original = AudioCacheKey(request: Self.request, engine: Self.engine)

        // When
        let changed = AudioCacheKey(request: request, engine: engine)

        // Then
        #expect(changed.hex != original.hex, "changing the \(field) must change the key")
    }

    @Test("The content digest of the lexicons in force is part of the key: editing a lexicon changes it")
    func lexiconChangesKey() {
        // Given
        func request(lexiconDigest: String, language: String? = "en") -> SpeechRequest {
            var request = Self.request
            request.voice.lexicons = [PronunciationLexicon(name: "fixes.pls", language: language, digest: lexiconDigest, entries: [])]
            return request
        }

        // When
        let plain = AudioCacheKey(request: Self.request, engine: Self.engine).hex
        let before = AudioCacheKey(request: request(lexiconDigest: "abc"), engine: Self.engine).hex
        let edited = AudioCacheKey(request: request(lexiconDigest: "abd"), engine: Self.engine).hex
        let otherLanguage = AudioCacheKey(request: request(lexiconDigest: "abc", language: "fr"), engine: Self.engine).hex

        // Then
        #expect(before != plain)
        #expect(edited != before)
        #expect(otherLanguage == plain, "a French lexicon is not in force for an English voice")
    }
}

private extension SpeechRequest {
    /// A copy with one change.
    func with(_ change: (inout SpeechRequest) -> Void) -> SpeechRequest {
        var copy = self
        change(&copy)
        return copy
    }
}
