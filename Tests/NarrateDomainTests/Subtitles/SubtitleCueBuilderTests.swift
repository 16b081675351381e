import NarrateDomain
import Testing

@Suite struct SubtitleCueBuilderTests {
    static let sampleRate = 22_050

    /// Two paragraphs, three sentences: an abbreviation that must not end the first, and French spacing and
    /// guillemets in the third.
    ///
    ///     Mr. Smith went to Paris. He liked it!¶¶« Bonjour, monsieur ! » dit-elle.
    ///     0   4     10   15 18     25 28    34  39 41       50       59  63  67  71
    static let text = "Mr. Smith went to Paris. He liked it!\n\n« Bonjour, monsieur ! » dit-elle."
    /// 4.5 s of audio.
    static let totalSamples = 99_225

    /// The marks eSpeak would report, by hand: (offset, length) in scalars, sample at 22 050 Hz.
    static let marks = [
        WordMark(textOffset: 0, textLength: 2, sampleOffset: 2_205),  // Mr        0.1 s
        WordMark(textOffset: 4, textLength: 5, sampleOffset: 6_615),  // Smith     0.3 s
        WordMark(textOffset: 10, textLength: 4, sampleOffset: 11_025),  // went    0.5 s
        WordMark(textOffset: 15, textLength: 2, sampleOffset: 15_435),  // to      0.7 s
        WordMark(textOffset: 18, textLength: 5, sampleOffset: 19_845),  // Paris   0.9 s
        WordMark(textOffset: 25, textLength: 2, sampleOffset: 33_075),  // He      1.5 s
        WordMark(textOffset: 28, textLength: 5, sampleOffset: 37_485),  // liked   1.7 s
        WordMark(textOffset: 34, textLength: 2, sampleOffset: 41_895),  // it      1.9 s
        WordMark(textOffset: 41, textLength: 7, sampleOffset: 55_125),  // Bonjour 2.5 s
        WordMark(textOffset: 50, textLength: 8, sampleOffset: 66_150),  // monsieur 3.0 s
        WordMark(textOffset: 63, textLength: 3, sampleOffset: 77_175),  // dit     3.5 s
        WordMark(textOffset: 67, textLength: 4, sampleOffset: 83_790),  // elle    3.8 s
    ]

    func build(
        _ text: String = text, marks: [WordMark] = marks, totalSamples: Int = totalSamples, maxCueSeconds: Double = 7
    ) -> [SubtitleCue] {
        SubtitleCueBuilder.cues(
            text: text, wordMarks: marks, sampleRate: Self.sampleRate, totalSamples: totalSamples,
            maxCueSeconds: maxCueSeconds
        )
    }

    @Test("one cue per sentence, across paragraphs, with no false split after “Mr.” and French quotes kept whole")
    func oneCuePerSentence() {
        // Given the text and its marks

        // When
        let cues = build()

        // Then
        #expect(cues.map(\.text) == [
            "Mr. Smith went to Paris.",
            "He liked it!",
            "« Bonjour, monsieur ! » dit-elle.",
        ])
    }

    @Test("a cue starts at its first word and ends where the next starts, the last at the end of the audio")
    func cueTimes() {
        // Given the text and its marks

        // When
        let cues = build()

        // Then
        #expect(cues.map(\.start) == [0.1, 1.5, 2.5])
        #expect(cues.map(\.end) == [1.5, 2.5, 4.5])
    }

    @Test("each word ends where the next starts, the last at the cue's end; word text comes from the marks")
    func wordTimes() {
        // Given the text and its marks

        // When
        let cues = build()

        // Then
        #expect(cues[0].words == [
            SubtitleCue.Word(start: 0.1, end: 0.3, text: "Mr"),
            SubtitleCue.Word(start: 0.3, end: 0.5, text: "Smith"),
            SubtitleCue.Word(start: 0.5, end: 0.7, text: "went"),
            SubtitleCue.Word(start: 0.7, end: 0.9, text: "to"),
            SubtitleCue.Word(start: 0.9, end: 1.5, text: "Paris"),
        ])
        #expect(cues[2].words.map(\.text) == ["Bonjour", "monsieur", "dit", "elle"])
        #expect(cues[2].words.last?.end == 4.5)
    }

    @Test("marks in any order give the same cues as sorted marks")
    func unsortedMarks() {
        // Given
        var shuffled = Array(Self.marks.reversed())
        shuffled.swapAt(0, 6)

        // When
        let fromShuffled = build(marks: shuffled)

        // Then
        #expect(fromShuffled == build())
    }

    @Test("cues are in order, never overlap and lie within the audio, even when marks run past its end")
    func cuesStayInsideTheAudio() {
        // Given marks whose last two samples lie past the end of 3 s of audio
        let totalSamples = 66_150
        var marks = Self.marks
        marks[10].sampleOffset = 70_000
        marks[11].sampleOffset = 90_000

        // When
        let cues = build(marks: marks, totalSamples: totalSamples)

        // Then
        let duration = Double(totalSamples) / Double(Self.sampleRate)
        #expect(!cues.isEmpty)
        for cue in cues {
            #expect(cue.start >= 0 && cue.start <= cue.end && cue.end <= duration)
            for word in cue.words {
                #expect(word.start >= cue.start && word.start <= word.end && word.end <= cue.end)
            }
        }
        for (previous, next) in zip(cues, cues.dropFirst()) {
            #expect(previous.end == next.start)
        }
        #expect(cues.last?.end == duration)
    }

    @Test("a sentence without words (only punctuation) joins the cue before it")
    func unspokenSentenceMerged() {
        // Given "…" on its own is a sentence, but eSpeak says nothing for it
        let text = "Hello there. … Goodbye now."
        let marks = [
            WordMark(textOffset: 0, textLength: 5, sampleOffset: 0),
            WordMark(textOffset: 6, textLength: 5, sampleOffset: 11_025),
            WordMark(textOffset: 15, textLength: 7, sampleOffset: 44_100),
            WordMark(textOffset: 23, textLength: 3, sampleOffset: 55_125),
        ]

        // When
        let cues = build(text, marks: marks, totalSamples: 66_150)

        // Then
        #expect(SentenceSplitter.sentences(in: text).count == 3)
        #expect(cues.map(\.text) == ["Hello there. …", "Goodbye now."])
        #expect(cues.map(\.start) == [0, 2])
        #expect(cues.map(\.end) == [2, 3])
    }

    @Test("a sentence that would last no time joins the next one; at the end of the audio, the one before")
    func zeroLengthCuesMerged() {
        // Given "Two" and "Three" marked at the same sample, and "Five" at the very end of the audio
        let text = "One. Two. Three. Four. Five."
        let marks = [
            WordMark(textOffset: 0, textLength: 3, sampleOffset: 0),
            WordMark(textOffset: 5, textLength: 3, sampleOffset: 11_025),
            WordMark(textOffset: 10, textLength: 5, sampleOffset: 11_025),
            WordMark(textOffset: 17, textLength: 4, sampleOffset: 22_050),
            WordMark(textOffset: 23, textLength: 4, sampleOffset: 44_100),
        ]

        // When
        let cues = build(text, marks: marks, totalSamples: 44_100)

        // Then
        #expect(cues.map(\.text) == ["One.", "Two. Three.", "Four. Five."])
        #expect(cues.map(\.start) == [0, 0.5, 1])
        #expect(cues.map(\.end) == [0.5, 1, 2])
        #expect(cues.allSatisfy { $0.end > $0.start })
    }

    @Test("a sentence longer than the limit is split at a word near its middle, each piece within the limit")
    func longSentenceSplit() {
        // Given 20 words, one every 0.5 s: a 10 s sentence
        let (text, marks) = Self.evenlySpokenSentence(wordCount: 20, comma: nil)

        // When
        let cues = build(text, marks: marks, totalSamples: 20 * 11_025)

        // Then
        #expect(cues.map(\.text) == [
            "w0 w1 w2 w3 w4 w5 w6 w7 w8 w9",
            "w10 w11 w12 w13 w14 w15 w16 w17 w18 w19.",
        ])
        #expect(cues.map(\.start) == [0, 5])
        #expect(cues.map(\.end) == [5, 10])
        #expect(cues.allSatisfy { $0.duration <= 7 })
        #expect(cues.flatMap(\.words).count == 20)
        #expect(cues[0].words.last?.end == 5)
    }

    @Test("a long sentence is cut after a comma when one is near the middle")
    func longSentenceSplitAtComma() {
        // Given the same sentence with a comma after w7 (4 s in)
        let (text, marks) = Self.evenlySpokenSentence(wordCount: 20, comma: 7)

        // When
        let cues = build(text, marks: marks, totalSamples: 20 * 11_025)

        // Then
        #expect(cues.map(\.text) == ["w0 w1 w2 w3 w4 w5 w6 w7,", "w8 w9 w10 w11 w12 w13 w14 w15 w16 w17 w18 w19."])
        #expect(cues.map(\.start) == [0, 4])
    }

    @Test("a sentence of 20 s with a 7 s limit becomes three cues of at most 7 s")
    func veryLongSentenceSplit() {
        // Given 40 words, one every 0.5 s
        let (text, marks) = Self.evenlySpokenSentence(wordCount: 40, comma: nil)

        // When
        let cues = build(text, marks: marks, totalSamples: 40 * 11_025)

        // Then
        #expect(cues.count == 3)
        #expect(cues.allSatisfy { $0.duration <= 7 })
        #expect(cues.map(\.text).joined(separator: " ") == text)
        #expect(cues.first?.start == 0)
        #expect(cues.last?.end == 20)
    }

    @Test("marks whose text offset lies outside the text are ignored; a mark's text is clipped to the text")
    func marksOutsideTheTextIgnored() {
        // Given
        var marks = Self.marks
        marks.append(WordMark(textOffset: 72, textLength: 3, sampleOffset: 88_200))
        marks.append(WordMark(textOffset: 500, textLength: 4, sampleOffset: 90_000))
        marks.append(WordMark(textOffset: -3, textLength: 2, sampleOffset: 1_000))
        marks[11].textLength = 40

        // When
        let cues = build(marks: marks)

        // Then
        #expect(cues.map(\.text) == build().map(\.text))
        #expect(cues.map(\.start) == [0.1, 1.5, 2.5])
        #expect(cues.flatMap(\.words).count == 12)
        #expect(cues[2].words.last?.text == "elle.")
    }

    @Test("an empty text, or a text without marks, gives no cues")
    func noCues() {
        // Given / When / Then
        #expect(build("", marks: []).isEmpty)
        #expect(build("", marks: Self.marks).isEmpty)
        #expect(build(marks: []).isEmpty)
    }

    @Test("whitespace inside a sentence is folded to single spaces")
    func whitespaceFolded() {
        // Given a sentence broken over lines
        let text = "  One\n  two\tthree.  "
        let marks = [
            WordMark(textOffset: 2, textLength: 3, sampleOffset: 0),
            WordMark(textOffset: 8, textLength: 3, sampleOffset: 4_410),
            WordMark(textOffset: 12, textLength: 5, sampleOffset: 8_820),
        ]

        // When
        let cues = build(text, marks: marks, totalSamples: 22_050)

        // Then
        #expect(cues.map(\.text) == ["One two three."])
    }

    @Test("a chapter of 30 000 words with unsorted marks is turned into ordered cues")
    func chapterIsFast() {
        // Given 3 000 sentences of 10 words in 300 paragraphs, with accents so scalars and bytes differ
        var text = ""
        var marks: [WordMark] = []
        var offset = 0
        var sample = 0
        for sentence in 0..<3_000 {
            for word in 0..<10 {
                let token = word == 9 ? "fée\(word)." : (word == 0 ? "Été\(word)" : "été\(word)")
                marks.append(WordMark(textOffset: offset, textLength: 4, sampleOffset: sample))
                text += token
                offset += token.unicodeScalars.count
                sample += 6_000
                let separator = word < 9 ? " " : (sentence % 10 == 9 ? "\n\n" : " ")
                text += separator
                offset += separator.unicodeScalars.count
            }
        }

        // When (speed is the benchmark's business; this checks the long, unsorted case works)
        let cues = SubtitleCueBuilder.cues(
            text: text, wordMarks: marks.reversed(), sampleRate: Self.sampleRate, totalSamples: sample
        )

        // Then
        #expect(cues.count == 3_000)
        #expect(cues.last?.words.last?.text == "fée9")
        #expect(zip(cues, cues.dropFirst()).allSatisfy { $0.end <= $1.start })
    }

    /// "w0 w1 … wN-1." spoken one word every 0.5 s from 0, with a comma after word `comma` if given.
    static func evenlySpokenSentence(wordCount: Int, comma: Int?) -> (String, [WordMark]) {
        var text = ""
        var marks: [WordMark] = []
        for index in 0..<wordCount {
            if index > 0 { text += " " }
            let word = "w\(index)"
            marks.append(WordMark(
                textOffset: text.unicodeScalars.count, textLength: word.unicodeScalars.count,
                sampleOffset: index * 11_025
            ))
            text += word
            if index == comma { text += "," }
        }
        return (text + ".", marks)
    }
}
