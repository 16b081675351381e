import NarrateData
import NarrateDomain
import Testing

@Suite struct SubtitleFormatterTests {
    typealias Word = SubtitleCue.Word

    /// Two short cues; the second needs escaping in WebVTT.
    let cues = [
        SubtitleCue(start: 0.1, end: 1.5, text: "Mr. Smith went.", words: [
            Word(start: 0.1, end: 0.5, text: "Mr"),
            Word(start: 0.5, end: 1.0, text: "Smith"),
            Word(start: 1.0, end: 1.5, text: "went"),
        ]),
        SubtitleCue(start: 1.5, end: 2.25, text: "Yes & no <really>.", words: [
            Word(start: 1.5, end: 1.8, text: "Yes"),
            Word(start: 1.8, end: 2.0, text: "no"),
            Word(start: 2.0, end: 2.25, text: "really"),
        ]),
    ]

    @Test("WebVTT with word timings: a timestamp tag before every word but the first, text escaped")
    func webVTTWithWordTimings() {
        // Given the two cues

        // When
        let vtt = SubtitleFormatter.webVTT(cues)

        // Then
        #expect(vtt == """
            WEBVTT

            00:00:00.100 --> 00:00:01.500
            Mr. <00:00:00.500>Smith <00:00:01.000>went.

            00:00:01.500 --> 00:00:02.250
            Yes &amp; <00:00:01.800>no &lt;<00:00:02.000>really&gt;.

            """)
    }

    @Test("WebVTT without word timings: only cue times and escaped text")
    func webVTTWithoutWordTimings() {
        // Given the two cues

        // When
        let vtt = SubtitleFormatter.webVTT(cues, wordTimings: false)

        // Then
        #expect(vtt == """
            WEBVTT

            00:00:00.100 --> 00:00:01.500
            Mr. Smith went.

            00:00:01.500 --> 00:00:02.250
            Yes &amp; no &lt;really&gt;.

            """)
    }

    @Test("SRT: numbered from 1, comma before the milliseconds, a blank line between cues, text as it is")
    func srt() {
        // Given the two cues

        // When
        let srt = SubtitleFormatter.srt(cues)

        // Then
        #expect(srt == """
            1
            00:00:00,100 --> 00:00:01,500
            Mr. Smith went.

            2
            00:00:01,500 --> 00:00:02,250
            Yes & no <really>.

            """)
    }

    @Test("no cues: a bare WebVTT header, an empty SRT")
    func noCues() {
        // Given / When / Then
        #expect(SubtitleFormatter.webVTT([]) == "WEBVTT\n")
        #expect(SubtitleFormatter.srt([]) == "")
    }

    @Test("timestamps past an hour, past 99 hours, rounded to the millisecond with carries")
    func longTimestamps() {
        // Given
        let cues = [
            SubtitleCue(start: 3_723.456, end: 3_725, text: "Late."),
            SubtitleCue(start: 59.9996, end: 360_000, text: "Later."),
        ]

        // When
        let vtt = SubtitleFormatter.webVTT(cues, wordTimings: false)
        let srt = SubtitleFormatter.srt(cues)

        // Then
        #expect(vtt.contains("01:02:03.456 --> 01:02:05.000\nLate."))
        #expect(vtt.contains("00:01:00.000 --> 100:00:00.000\nLater."))
        #expect(srt.contains("01:02:03,456 --> 01:02:05,000\nLate."))
    }

    @Test("a word tag at the cue start, at the cue end or not after the previous one is left out")
    func invalidTagsLeftOut() {
        // Given words at the cue start, repeated, at the cue end, and one missing from the text
        let cue = SubtitleCue(start: 1, end: 2, text: "a b c d", words: [
            Word(start: 1, end: 1.5, text: "a"),
            Word(start: 1.5, end: 1.5, text: "b"),
            Word(start: 1.5, end: 1.6, text: "x"),
            Word(start: 1.5, end: 2, text: "c"),
            Word(start: 2, end: 2, text: "d"),
        ])

        // When
        let vtt = SubtitleFormatter.webVTT([cue])

        // Then
        #expect(vtt == "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\na <00:00:01.500>b c d\n")
    }

    @Test("text longer than a line goes onto two balanced lines of at most 42 characters")
    func twoLines() {
        // Given 57 characters
        let text = "It is a truth universally acknowledged, that a single man"
        let cue = SubtitleCue(start: 0, end: 3, text: text)

        // When
        let srt = SubtitleFormatter.srt([cue])

        // Then
        #expect(srt == "1\n00:00:00,000 --> 00:00:03,000\nIt is a truth universally\nacknowledged, that a single man\n")
    }

    @Test("text too long for two lines is wrapped at 42 characters; word tags survive the wrapping")
    func threeLines() {
        // Given 117 characters, with a timed word at the start of the second line
        let text = "It is a truth universally acknowledged, that a single man in possession of a good fortune, "
            + "must be in want of a wife."
        let cue = SubtitleCue(start: 0, end: 7, text: text, words: [
            Word(start: 0, end: 2, text: "It"),
            Word(start: 2, end: 7, text: "that"),
        ])

        // When
        let vtt = SubtitleFormatter.webVTT([cue])

        // Then
        #expect(vtt == """
            WEBVTT

            00:00:00.000 --> 00:00:07.000
            It is a truth universally acknowledged,
            <00:00:02.000>that a single man in possession of a good
            fortune, must be in want of a wife.

            """)
    }

    @Test("short text stays on one line; a word longer than a line is not cut")
    func oneLine() {
        // Given
        let short = SubtitleCue(start: 0, end: 1, text: "Short and sweet.")
        let long = SubtitleCue(start: 1, end: 2, text: String(repeating: "x", count: 50))

        // When
        let srt = SubtitleFormatter.srt([short, long])

        // Then
        #expect(srt.contains("\nShort and sweet.\n"))
        #expect(srt.contains("\n" + String(repeating: "x", count: 50) + "\n"))
    }

    @Test("a line never ends with a quotation mark that opens the next, nor starts with one that closes")
    func lineBreakAroundSpacedQuotes() {
        // Given French spacing, where the most even cut would fall just after « (after 24 of 50 characters)
        let text = "Elle dit doucement tout « Bonjour, mon ami ! » alors"
        let cue = SubtitleCue(start: 0, end: 3, text: text)

        // When
        let srt = SubtitleFormatter.srt([cue])

        // Then
        let lines = srt.split(separator: "\n").dropFirst(2)
        #expect(lines.count == 2)
        #expect(!lines.contains { $0.hasSuffix("«") || $0.hasPrefix("»") || $0.hasPrefix("!") })
    }
}
