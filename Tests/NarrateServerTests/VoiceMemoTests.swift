import NarrateKit
import Testing
@testable import NarrateServer

@Suite("VoiceMemo")
struct VoiceMemoTests {
    let clock = InstantClockMock()
    let sut: VoiceMemo

    init() {
        sut = VoiceMemo(ttl: .seconds(5), now: clock.now)
    }

    @Test("Given a remembered voice, when asked within its time to live, then its profile is given")
    func remembered() {
        // Given
        var profile = VoiceProfile.narrator
        profile.rate = 190
        sut.remember(profile, for: "alloy")

        // When
        clock.advance(by: .seconds(5) - .milliseconds(1))

        // Then
        #expect(sut.profile(for: "alloy") == profile)
        #expect(sut.profile(for: "nova") == nil)
    }

    @Test("Given a remembered voice, when its time to live has passed, then it is resolved again")
    func expires() {
        // Given
        sut.remember(.narrator, for: "alloy")

        // When
        clock.advance(by: .seconds(5))

        // Then
        #expect(sut.profile(for: "alloy") == nil)
    }

    @Test("Given an expired voice, when it is remembered again, then its time to live starts anew")
    func rememberedAgain() {
        // Given
        sut.remember(.narrator, for: "alloy")
        clock.advance(by: .seconds(6))

        // When
        sut.remember(.narrator, for: "alloy")
        clock.advance(by: .seconds(4))

        // Then
        #expect(sut.profile(for: "alloy") == .narrator)
    }
}
