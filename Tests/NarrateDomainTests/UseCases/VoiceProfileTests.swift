import Testing

@testable import NarrateDomain

@Suite struct VoiceProfileTests {
    @Test("A profile within every range is returned unchanged, bounds included")
    func validProfileIsReturned() throws {
        // Given
        let lowest = VoiceProfile(voice: "fr", rate: 80, pitch: 0, volume: 0, wordGap: 0)
        let highest = VoiceProfile(voice: "fr", rate: 450, pitch: 99, volume: 200, wordGap: 1_000)

        // When / Then
        #expect(try lowest.validated() == lowest)
        #expect(try highest.validated() == highest)
        #expect(try VoiceProfile.narrator.validated() == .narrator)
    }

    @Test("Each parameter out of range is named with its value and range", arguments: [
        (VoiceProfile(voice: "en", rate: 79), SpeechError.parameterOutOfRange(name: "rate", value: 79, range: 80...450)),
        (VoiceProfile(voice: "en", rate: 451), SpeechError.parameterOutOfRange(name: "rate", value: 451, range: 80...450)),
        (VoiceProfile(voice: "en", pitch: -1), SpeechError.parameterOutOfRange(name: "pitch", value: -1, range: 0...99)),
        (VoiceProfile(voice: "en", pitch: 100), SpeechError.parameterOutOfRange(name: "pitch", value: 100, range: 0...99)),
        (VoiceProfile(voice: "en", volume: 201), SpeechError.parameterOutOfRange(name: "volume", value: 201, range: 0...200)),
        (VoiceProfile(voice: "en", wordGap: 1_001), SpeechError.parameterOutOfRange(name: "word gap", value: 1_001, range: 0...1_000)),
    ])
    func outOfRangeParameterThrows(profile: VoiceProfile, expected: SpeechError) {
        #expect(throws: expected) {
            _ = try profile.validated()
        }
    }

    @Test("With several bad parameters, the first in the order rate, pitch, volume, word gap is named")
    func firstBadParameterIsNamed() {
        #expect(throws: SpeechError.parameterOutOfRange(name: "pitch", value: 500, range: 0...99)) {
            _ = try VoiceProfile(voice: "en", pitch: 500, volume: 500, wordGap: -3).validated()
        }
    }
}
