import NarrateDomain
import Testing

@Suite struct SentenceTimingTests {
    @Test("one mark per sentence, at its share of the characters, the first at 0")
    func marks() {
        // Given: sentences of 10, 22 and 10 characters.
        let text = "Ten chars. Twenty chars are here. Ten chars."

        // When
        let marks = SentenceTiming.marks(for: text, sampleCount: 4_000)

        // Then
        #expect(marks == [
            WordMark(textOffset: 0, textLength: 10, sampleOffset: 0),
            WordMark(textOffset: 11, textLength: 22, sampleOffset: 952),
            WordMark(textOffset: 34, textLength: 10, sampleOffset: 3_047),
        ])
    }

    @Test("subtitles from these marks change cue at each sentence")
    func cues() {
        let text = "First sentence. Second one here."
        let marks = SentenceTiming.marks(for: text, sampleCount: 32_000)
        let cues = SubtitleCueBuilder.cues(text: text, wordMarks: marks, sampleRate: 16_000, totalSamples: 32_000)
        #expect(cues.map(\.text) == ["First sentence.", "Second one here."])
        #expect(cues.first?.start == 0)
        #expect(cues.last?.end == 2)
    }

    @Test("no text, no marks")
    func empty() {
        #expect(SentenceTiming.marks(for: "   ", sampleCount: 100).isEmpty)
    }
}
