import NarrateDomain
import Testing

@Suite struct PageTimelineTests {
    /// A mark for `word` where it first occurs in `text` at or after `after`, at `sample`.
    private func mark(_ word: String, in text: String, after: Int = 0, at sample: Int) -> WordMark {
        let scalars = Array(text.unicodeScalars)
        let wanted = Array(word.unicodeScalars)
        let offset = (after...(scalars.count - wanted.count)).first { Array(scalars[$0..<($0 + wanted.count)]) == wanted }!
        return WordMark(textOffset: offset, textLength: wanted.count, sampleOffset: sample)
    }

    @Test("each sentence runs from its first word to the next sentence's, the first from 0")
    func sentences() {
        // Given: two sentences, eSpeak-style word marks, 1 s of audio at 1 kHz
        let text = "Hello there. Good night."
        let marks = [mark("Hello", in: text, at: 50), mark("there", in: text, at: 200), mark("Good", in: text, at: 600), mark("night", in: text, at: 800)]

        // When
        let timeline = PageTimeline.make(text: text, wordMarks: marks, sampleRate: 1_000, sampleCount: 1_000, timing: .words)

        // Then
        #expect(timeline.duration == 1)
        #expect(timeline.sentences == [
            PageTimeline.Span(start: 0, end: 0.6, from: 0, to: 12),
            PageTimeline.Span(start: 0.6, end: 1, from: 13, to: 24),
        ])
        #expect(timeline.words.map(\.start) == [0.05, 0.2, 0.6, 0.8])
        #expect(timeline.words.map(\.end) == [0.2, 0.6, 0.8, 1])
        #expect(timeline.words.map { Array(text.utf16)[$0.from..<$0.to] }.map { String(decoding: $0, as: UTF16.self) } == ["Hello", "there", "Good", "night"])
    }

    @Test("offsets count UTF-16 code units, as JavaScript does, past emoji and accents")
    func utf16() {
        // Given: a scalar outside the BMP (two UTF-16 units) before the second sentence
        let text = "Wait 🙂. Café time."
        let marks = [mark("Wait", in: text, at: 0), mark("Café", in: text, at: 500)]

        // When
        let timeline = PageTimeline.make(text: text, wordMarks: marks, sampleRate: 1_000, sampleCount: 1_000, timing: .words)

        // Then: the second sentence and word start at UTF-16 unit 9, not scalar 8
        let units = Array(text.utf16)
        #expect(timeline.sentences.map { String(decoding: units[$0.from..<$0.to], as: UTF16.self) } == ["Wait 🙂.", "Café time."])
        #expect(timeline.words.last.map { String(decoding: units[$0.from..<$0.to], as: UTF16.self) } == "Café")
    }

    @Test("a voice timed by sentence gives sentences and no words")
    func sentenceTiming() {
        // Given: Piper-style marks, one per sentence
        let text = "One. Two three."
        let marks = SentenceTiming.marks(for: text, sampleCount: 2_000)

        // When
        let timeline = PageTimeline.make(text: text, wordMarks: marks, sampleRate: 1_000, sampleCount: 2_000, timing: .sentences)

        // Then
        #expect(timeline.sentences.count == 2)
        #expect(timeline.words.isEmpty)
        #expect(timeline.timing == .sentences)
    }

    @Test("a sentence without a mark is left out; marks outside the text are ignored")
    func unmarked() {
        // Given: a middle 'sentence' of punctuation only, and a mark past the end
        let text = "First one. ... Last one."
        let marks = [mark("First", in: text, at: 0), mark("Last", in: text, at: 700), WordMark(textOffset: 99, textLength: 3, sampleOffset: 900)]

        // When
        let timeline = PageTimeline.make(text: text, wordMarks: marks, sampleRate: 1_000, sampleCount: 1_000, timing: .words)

        // Then
        let units = Array(text.utf16)
        #expect(timeline.sentences.map { String(decoding: units[$0.from..<$0.to], as: UTF16.self) } == ["First one.", "Last one."])
        #expect(timeline.words.count == 2)
    }

    @Test("a sentence spoken before the one above it joins it, so starts never go back")
    func outOfOrder() {
        // Given: the second sentence's mark comes before the first's
        let text = "Alpha beta. Gamma delta. Epsilon."
        let marks = [mark("Alpha", in: text, at: 300), mark("Gamma", in: text, at: 100), mark("Epsilon", in: text, at: 800)]

        // When
        let timeline = PageTimeline.make(text: text, wordMarks: marks, sampleRate: 1_000, sampleCount: 1_000, timing: .sentences)

        // Then: starts ascend and every part of the text is still covered
        #expect(timeline.sentences.map(\.start) == timeline.sentences.map(\.start).sorted())
        #expect(timeline.sentences.first?.from == 0)
        #expect(timeline.sentences.last?.to == text.utf16.count)
    }

    @Test("no marks or no sample rate, no spans")
    func empty() {
        #expect(PageTimeline.make(text: "Some text.", wordMarks: [], sampleRate: 1_000, sampleCount: 10, timing: .words).sentences.isEmpty)
        #expect(PageTimeline.make(text: "Some text.", wordMarks: [WordMark(textOffset: 0, textLength: 4, sampleOffset: 0)], sampleRate: 0, sampleCount: 10, timing: .words).sentences.isEmpty)
    }
}
