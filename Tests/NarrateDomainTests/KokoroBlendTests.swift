import Testing

@testable import NarrateDomain

/// Kokoro voice names and blends as users write them: Narrate's `a:0.6+b:0.4`, Kokoro-FastAPI's
/// `a(3)+b(2)`, one voice alone; other engines' names are left alone.
@Suite struct KokoroBlendTests {
    @Test("Given one voice, when parsed, then it is one part of weight 1 and named as given")
    func oneVoice() throws {
        // When
        let blend = try #require(try KokoroBlend.parse("af_heart"))
        // Then
        #expect(blend.parts == [.init(name: "af_heart", weight: 1)])
        #expect(!blend.isBlend)
        #expect(blend.canonicalName == "af_heart")
    }

    @Test("Given Narrate's and Kokoro-FastAPI's forms of one mix, when parsed, then both give the same normalized weights and name")
    func bothForms() throws {
        // When
        let narrate = try #require(try KokoroBlend.parse("af_heart:0.6+bf_emma:0.4"))
        let fastAPI = try #require(try KokoroBlend.parse("af_heart(3) + bf_emma(2)"))
        // Then
        #expect(narrate == fastAPI)
        #expect(narrate.parts.map(\.name) == ["af_heart", "bf_emma"])
        #expect(abs(narrate.parts[0].weight - 0.6) < 1e-12 && abs(narrate.parts[1].weight - 0.4) < 1e-12)
        #expect(narrate.canonicalName == "af_heart:0.6+bf_emma:0.4")
    }

    @Test("Given parts without weights, when parsed, then each weighs the same")
    func equalWeights() throws {
        let blend = try #require(try KokoroBlend.parse("af_heart+am_adam+bf_emma+bm_george"))
        #expect(blend.parts.allSatisfy { $0.weight == 0.25 })
    }

    @Test("Given names of other engines, when parsed, then they are not Kokoro's (nil), eSpeak variants included",
          arguments: ["en-us", "en+f3", "narrator", "en_US-joe-medium", "alloy", "", "fr+m2"])
    func otherEnginesNames(name: String) throws {
        #expect(try KokoroBlend.parse(name) == nil)
    }

    @Test("Given a blend with a bad weight, a repeated voice, a part that is no voice or too many parts, when parsed, then it is refused with a reason",
          arguments: [
              ("af_heart:0+bf_emma:1", "weight '0'"), ("af_heart:-1+bf_emma:1", "weight '-1'"), ("af_heart:x+bf_emma:1", "weight 'x'"),
              ("af_heart(nan)+bf_emma(1)", "weight 'nan'"), ("af_heart:1e9+bf_emma:1", "at most 1000"), ("af_heart+af_heart", "twice"),
              ("af_heart+en-us", "'en-us' is not a Kokoro voice name"), ("af_heart+", "'' is not"),
              ((1...9).map { "af_v\($0)" }.joined(separator: "+"), "at most 8"),
          ])
    func refusesBadBlends(name: String, reason: String) {
        #expect {
            _ = try KokoroBlend.parse(name)
        } throws: { error in
            (error as? KokoroBlend.Problem).map { $0.reason.contains(reason) && $0.name == name } ?? false
        }
    }

    @Test("Voice names are a language letter, a gender letter, '_' and a name")
    func voiceNames() {
        #expect(KokoroBlend.isVoiceName("af_heart"))
        #expect(KokoroBlend.isVoiceName("zm_yunxi"))
        #expect(KokoroBlend.isVoiceName("jf_alpha-2"))
        #expect(!KokoroBlend.isVoiceName("af_"))
        #expect(!KokoroBlend.isVoiceName("a_heart"))
        #expect(!KokoroBlend.isVoiceName("af_he/art"))
        #expect(!KokoroBlend.isVoiceName("af_heart.bin"))
        #expect(!KokoroBlend.isVoiceName("en_US-joe-medium"))
        #expect(!KokoroBlend.isVoiceName("AF_heart"))
    }
}

/// What a Kokoro voice's name says: language and eSpeak NG language from its first letter,
/// gender from its second.
@Suite struct KokoroLanguageTests {
    @Test("Each of Kokoro's language letters names its eSpeak NG language",
          arguments: [("af_heart", "en-us"), ("bm_george", "en-gb"), ("ef_dora", "es"), ("ff_siwis", "fr-fr"), ("hf_alpha", "hi"),
                      ("if_sara", "it"), ("pf_dora", "pt-br"), ("jf_alpha", "ja"), ("zf_xiaobei", "cmn")])
    func languages(name: String, espeak: String) {
        #expect(KokoroLanguage.of(voice: name)?.espeakLanguage == espeak)
    }

    @Test("A letter that is none of Kokoro's names no language; the second letter gives the gender")
    func unknownAndGender() {
        #expect(KokoroLanguage.of(voice: "xf_none") == nil)
        #expect(KokoroLanguage.gender(of: "af_heart") == .female)
        #expect(KokoroLanguage.gender(of: "am_adam") == .male)
        #expect(KokoroLanguage.gender(of: "ax_other") == .unspecified)
    }

    @Test("--rate maps onto Kokoro's speed, 175 words a minute being 1.0, within 0.5 to 2.0")
    func speedFromRate() {
        #expect(KokoroVoiceSettings.speed(rate: 175) == 1.0)
        #expect(KokoroVoiceSettings.speed(rate: 350) == 2.0)
        #expect(KokoroVoiceSettings.speed(rate: 88) == 88.0 / 175)
        #expect(KokoroVoiceSettings.speed(rate: 80) == 0.5)
    }

    @Test("A Kokoro profile's rate is checked against the speeds Kokoro takes")
    func rateIsChecked() {
        let kokoro = KokoroVoiceSettings(model: "m.onnx", styles: [.init(name: "af_heart", pack: "p.bin", weight: 1)], language: "en-us")
        #expect(throws: SpeechError.self) { try VoiceProfile(voice: "en-us", rate: 400, kokoro: kokoro).validated() }
        #expect(throws: Never.self) { try VoiceProfile(voice: "en-us", rate: 350, kokoro: kokoro).validated() }
        #expect(VoiceProfile(voice: "en-us", rate: 175, kokoro: kokoro).speedRange == 0.51...2.0)
    }
}
