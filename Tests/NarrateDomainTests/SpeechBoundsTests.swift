import Testing

@testable import NarrateDomain

@Suite("Speech bounds")
struct SpeechBoundsTests {
    let voice = VoiceProfile(voice: "en-us")

    @Test("SSML break times are read in seconds and milliseconds, any case and quoting; a bare number is milliseconds")
    func breakTimes() {
        let ssml = #"<speak>a<break time="2s"/>b<BREAK Time='250ms'/>c<break strength="strong"/>d<break time="1500"/>e<break time=" 1.5s "/></speak>"#

        #expect(SpeechBounds.breakSeconds(in: ssml) == [2, 0.25, 1.5, 1.5])
    }

    @Test("A break past the limit is refused with both durations in the message")
    func longBreakIsRefused() {
        let ssml = String(repeating: #"a<break time="99999999999s"/>"#, count: 30)

        #expect(throws: SpeechError.pauseTooLong(seconds: 99_999_999_999, limitSeconds: 60)) {
            try SpeechBounds.standard.check(ssml, isSSML: true, voice: voice)
        }
        #expect(SpeechError.pauseTooLong(seconds: 99_999_999_999, limitSeconds: 60).description.contains("more than a billion seconds"))
    }

    @Test("Many short breaks that add up past the hours allowed are refused too")
    func breaksAddUp() {
        let ssml = String(repeating: #"a<break time="59s"/>"#, count: 2_000)  // 32.8 hours

        #expect(throws: SpeechError.self) { try SpeechBounds.standard.check(ssml, isSSML: true, voice: voice) }
    }

    @Test("Break markup in plain text is words, not pauses")
    func plainTextHasNoBreaks() throws {
        try SpeechBounds.standard.check(#"a<break time="99999s"/>"#, isSSML: false, voice: voice)
    }

    @Test("A text longer than the hours allowed is refused before synthesis, with an estimate")
    func longTextIsRefused() {
        // 5 MB at 175 words a minute: about 79 hours
        let text = String(repeating: "word ", count: 1_000_000)

        let error = #expect(throws: SpeechError.self) { try SpeechBounds.standard.check(text, isSSML: false, voice: voice) }

        guard case let .textTooLong(hours, limit) = error else {
            Issue.record("expected textTooLong, got \(String(describing: error))")
            return
        }
        #expect((75...85).contains(hours))
        #expect(limit == 24)
        #expect(error?.description.contains("add it as a book and export it") == true)
    }

    @Test("A long book page and a slow voice stay within bounds")
    func ordinaryTextsPass() throws {
        try SpeechBounds.standard.check(String(repeating: "A sentence of a book. ", count: 5_000), isSSML: false, voice: VoiceProfile(voice: "en-us", rate: 80))
        try SpeechBounds.standard.check(#"<speak>Wait<break time="30s"/>now.</speak>"#, isSSML: true, voice: voice)
    }
}
