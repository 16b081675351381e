import Foundation
import NarrateDomain
import Synchronization
import Testing

@testable import NarrateData

@Suite struct VoiceRepositoryTests {
    static let american = Voice(name: "English (America)", identifier: "gmw/en-US", languages: ["en-us", "en"], gender: .male)
    static let british = Voice(name: "English (Great Britain)", identifier: "gmw/en", languages: ["en-gb", "en"], gender: .male)
    static let french = Voice(name: "French (France)", identifier: "roa/fr", languages: ["fr-fr", "fr"], gender: .male)
    static let mandarin = Voice(name: "Chinese (Mandarin)", identifier: "sit/cmn", languages: ["zh"], gender: .male)
    static let engineVoices = [french, mandarin, american, british]
    static let variants = ["f1", "f2", "f3", "m1", "m3", "klatt", "whisper"]

    private let folder: PresetFolder
    private let engineCalls = CallCounter()
    private let sut: VoiceRepository

    init() throws {
        folder = try PresetFolder()
        let engineCalls = engineCalls
        sut = VoiceRepository(presetDirectories: [folder.path]) { () throws(SpeechError) in
            engineCalls.increment()
            return (Self.engineVoices, Self.variants)
        }
    }

    // MARK: - Presets

    @Test("a preset's lexicons are read from its folder; one that cannot be read is kept empty with its problem")
    func presetLexicons() async throws {
        // Given
        try folder.write("fixes.pls", #"<lexicon alphabet="ipa" xml:lang="en"><lexeme><grapheme>nginx</grapheme><phoneme>ˈɛndʒɪnˈɛks</phoneme></lexeme></lexicon>"#)
        try folder.write("teacher.json", #"{"name": "teacher", "voice": "en-gb", "lexicons": ["fixes.pls", "missing.pls"]}"#)

        // When
        let profile = try await sut.profile(named: "teacher")

        // Then
        #expect(profile.lexicons.map(\.name) == [folder.path + "/fixes.pls", folder.path + "/missing.pls"])
        #expect(profile.lexicons[0].entries.count == 1)
        #expect(profile.lexicons[1].problem?.contains("no such file") == true)
        #expect(engineCalls.count == 0, "a preset needs no engine")
        #expect(Pronouncer(lexicons: profile.lexicons, voice: profile.voice).apply("nginx").text == "[['EndZIn'Eks]]")
    }

    @Test("The built-in narrator preset exists when there are no preset files")
    func builtInNarrator() async throws {
        // When
        let profile = try await sut.profile(named: "narrator")
        let voices = try await sut.voices()

        // Then
        #expect(profile == .narrator)
        #expect(voices.first?.name == "narrator")
        #expect(voices.first?.preset == .narrator)
        #expect(engineCalls.count == 1, "only voices() should ask the engine")
    }

    @Test("A preset file named narrator replaces the built-in one")
    func presetFileOverridesNarrator() async throws {
        // Given
        try folder.write("narrator.json", #"{"name": "narrator", "voice": "en-gb", "rate": 160}"#)

        // When
        let profile = try await sut.profile(named: "narrator")

        // Then
        #expect(profile == VoiceProfile(voice: "en-gb", rate: 160))
    }

    @Test("A preset file adds a voice, found by name in any case; missing parameters take the defaults")
    func presetFileAddsVoice() async throws {
        // Given
        try folder.write("calm.json", #"{"name": "Calm", "voice": "en-gb+f3", "rate": 140, "wordGap": 3, "language": "en-gb", "description": "Slow and even."}"#)

        // When
        let profile = try await sut.profile(named: "calm")
        let voices = try await sut.voices()

        // Then
        #expect(profile == VoiceProfile(voice: "en-gb+f3", rate: 140, pitch: 50, volume: 100, wordGap: 3))
        #expect(voices.map(\.name) == ["Calm", "narrator", "Chinese (Mandarin)", "English (America)", "English (Great Britain)", "French (France)"])
        #expect(voices.first == Voice(name: "Calm", identifier: "en-gb+f3", languages: ["en-gb"], preset: profile))
    }

    @Test("Presets in an earlier folder win over the same name in a later one")
    func earlierFolderWins() async throws {
        // Given
        let later = try PresetFolder()
        try folder.write("calm.json", #"{"name": "calm", "voice": "en-us", "rate": 130}"#)
        try later.write("calm.json", #"{"name": "calm", "voice": "fr", "rate": 300}"#)
        let sut = VoiceRepository(presetDirectories: [folder.path, later.path]) { () throws(SpeechError) in
            (Self.engineVoices, Self.variants)
        }

        // When
        let profile = try await sut.profile(named: "calm")

        // Then
        #expect(profile == VoiceProfile(voice: "en-us", rate: 130))
    }

    @Test("A malformed or incomplete preset file is ignored, and the others still load")
    func malformedPresetIgnored() async throws {
        // Given
        try folder.write("broken.json", #"{"name": "broken", "voice": "#)
        try folder.write("novoice.json", #"{"name": "novoice"}"#)
        try folder.write("notes.txt", "not a preset")
        try folder.write("calm.json", #"{"name": "calm", "voice": "en-us"}"#)

        // When
        let voices = try await sut.voices()

        // Then
        #expect(voices.filter { $0.preset != nil }.map(\.name) == ["calm", "narrator"])
        await #expect(throws: SpeechError.self) {
            _ = try await sut.profile(named: "broken")
        }
    }

    @Test("A missing preset folder is no error")
    func missingFolderIsNoError() async throws {
        // Given
        let sut = VoiceRepository(presetDirectories: [folder.path + "/does-not-exist"]) { () throws(SpeechError) in
            (Self.engineVoices, Self.variants)
        }

        // When
        let profile = try await sut.profile(named: "narrator")

        // Then
        #expect(profile == .narrator)
    }

    // MARK: - Engine voices

    // A voice named by its display name is given to eSpeak by its file: eSpeak's own names may
    // end in a space ("Cherokee "), which nobody types.
    @Test("An engine voice is found by language code, file name, identifier or name; language codes in lower case; names become files", arguments: [
        ("en-us", "en-us"), ("EN-GB", "en-gb"), ("fr", "fr"), ("cmn", "cmn"), ("sit/cmn", "sit/cmn"), ("Chinese (Mandarin)", "sit/cmn"),
    ])
    func engineVoiceByAnyName(name: String, expected: String) async throws {
        // When
        let profile = try await sut.profile(named: name)

        // Then
        #expect(profile == VoiceProfile(voice: expected))
    }

    @Test("An engine voice with a known variant is found")
    func engineVoiceWithVariant() async throws {
        // When
        let profile = try await sut.profile(named: "en+f3")

        // Then
        #expect(profile == VoiceProfile(voice: "en+f3"))
    }

    @Test("An unknown name throws voiceNotFound with close names as suggestions")
    func unknownNameSuggestsCloseNames() async throws {
        // When / Then
        await #expect(throws: SpeechError.voiceNotFound("en-uss", suggestions: ["en-us"])) {
            _ = try await sut.profile(named: "en-uss")
        }
        await #expect(throws: SpeechError.voiceNotFound("narator", suggestions: ["narrator"])) {
            _ = try await sut.profile(named: "narator")
        }
    }

    @Test("A name like nothing known throws voiceNotFound without suggestions")
    func unrelatedNameHasNoSuggestions() async throws {
        await #expect(throws: SpeechError.voiceNotFound("klingon", suggestions: [])) {
            _ = try await sut.profile(named: "klingon")
        }
    }

    @Test("An unknown variant throws voiceNotFound suggesting the voice with close variants")
    func unknownVariantSuggestsVariants() async throws {
        await #expect(throws: SpeechError.voiceNotFound("en+f9", suggestions: ["en+f1", "en+f2", "en+f3"])) {
            _ = try await sut.profile(named: "en+f9")
        }
    }

    @Test("An empty name throws voiceNotFound")
    func emptyNameThrows() async throws {
        await #expect(throws: SpeechError.self) {
            _ = try await sut.profile(named: "")
        }
    }

    @Test("The engine's error is propagated")
    func engineErrorPropagates() async throws {
        // Given
        let failure = SpeechError.engineUnavailable(reason: "espeak-ng-data not found")
        let sut = VoiceRepository(presetDirectories: [folder.path]) { () throws(SpeechError) in throw failure }

        // When / Then
        await #expect(throws: failure) { _ = try await sut.voices() }
        await #expect(throws: failure) { _ = try await sut.profile(named: "en-us") }
        #expect(try await sut.profile(named: "narrator") == .narrator, "a preset needs no engine")
    }
}

/// A fresh folder for preset files, removed with its contents when released.
private final class PresetFolder: Sendable {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("narrate-voices-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    func write(_ name: String, _ contents: String) throws {
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path + "/" + name))
    }
}

/// Counts calls from a `@Sendable` closure.
private final class CallCounter: Sendable {
    private let value = Mutex(0)

    var count: Int { value.withLock { $0 } }

    func increment() {
        value.withLock { $0 += 1 }
    }
}
