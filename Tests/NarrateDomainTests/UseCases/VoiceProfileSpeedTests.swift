import Testing

@testable import NarrateDomain

@Suite struct VoiceProfileSpeedTests {
    @Test("OpenAI's speed multiplies the voice's own rate, rounded to a whole rate")
    func speedMultipliesRate() {
        #expect(VoiceProfile(voice: "en-us", rate: 175).atSpeed(1.0)?.rate == 175)
        #expect(VoiceProfile(voice: "en-us", rate: 175).atSpeed(1.5)?.rate == 263)
        #expect(VoiceProfile(voice: "en-us", rate: 160).atSpeed(0.5)?.rate == 80)
    }

    @Test("The usable speeds are 0.25 to 4.0 narrowed to the rate range, to two decimals; outside them there is no profile")
    func speedRange() {
        // Given a voice at 175 words a minute: 80/175 = 0.457…, 450/175 = 2.571…
        let profile = VoiceProfile(voice: "en-us", rate: 175)

        // Then
        #expect(profile.speedRange == 0.46...2.57)
        #expect(profile.atSpeed(0.25) == nil)
        #expect(profile.atSpeed(2.58) == nil)
        #expect(profile.atSpeed(.nan) == nil)
        #expect(profile.atSpeed(.infinity) == nil)
        #expect(profile.atSpeed(2.57)?.rate == 450)
        #expect(profile.atSpeed(0.46)?.rate == 81)
    }

    @Test("A slow voice reaches OpenAI's 4.0 only as far as 450 words a minute")
    func slowVoice() {
        #expect(VoiceProfile(voice: "en-us", rate: 100).speedRange == 0.8...4.0)
        #expect(VoiceProfile(voice: "en-us", rate: 100).atSpeed(4.0)?.rate == 400)
    }
}
