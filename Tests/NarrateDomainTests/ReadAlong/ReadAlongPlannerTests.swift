import NarrateDomain
import Testing

@Suite struct ReadAlongPlannerTests {
    private let document = XHTMLDocument(bytes: Array("<html><body><p>First one. Second one.</p><p>Third one.</p></body></html>".utf8))

    @Test("each cue becomes a span and a clip of its item's audio, in milliseconds")
    func sentences() throws {
        // Given
        let timing = ReadAlongTiming(sampleCount: 48_000, sampleRate: 16_000, cues: [
            SubtitleCue(start: 0, end: 1.25, text: "First one."),
            SubtitleCue(start: 1.25, end: 2.0004, text: "Second one."),
            SubtitleCue(start: 2.0004, end: 3, text: "Third one."),
        ])

        // When
        let plan = ReadAlongPlanner.plan(documents: [document], timings: [timing], granularity: .sentence)

        // Then
        let clips = try #require(plan.documents[0]?.clips)
        #expect(clips.map(\.begin) == [0, 1_250, 2_000])
        #expect(clips.map(\.end) == [1_250, 2_000, 3_000])
        #expect(Set(clips.map(\.id)).count == 3)
        #expect(plan.unplaced == 0)
    }

    @Test("a cue not in the text plays on with the clip before it")
    func unplaced() throws {
        let timing = ReadAlongTiming(sampleCount: 48_000, sampleRate: 16_000, cues: [
            SubtitleCue(start: 0, end: 1, text: "First one."),
            SubtitleCue(start: 1, end: 2, text: "Nowhere to be seen in it."),
            SubtitleCue(start: 2, end: 3, text: "Second one."),
        ])

        let plan = ReadAlongPlanner.plan(documents: [document], timings: [timing], granularity: .sentence)

        let clips = try #require(plan.documents[0]?.clips)
        #expect(clips.map(\.end) == [2_000, 3_000])
        #expect(plan.unplaced == 1)
    }

    @Test("word granularity gives each word its own span and clip")
    func words() throws {
        let timing = ReadAlongTiming(sampleCount: 16_000, sampleRate: 16_000, cues: [
            SubtitleCue(start: 0, end: 1, text: "First one.", words: [.init(start: 0.1, end: 0.5, text: "First"), .init(start: 0.5, end: 0.9, text: "one.")]),
        ])

        let plan = ReadAlongPlanner.plan(documents: [document], timings: [timing], granularity: .word)

        let clips = try #require(plan.documents[0]?.clips)
        #expect(clips.map(\.begin) == [0, 500])
        #expect(clips.map(\.end) == [500, 1_000])
        #expect(clips.allSatisfy { $0.id.hasPrefix("nr-w") })
    }

    @Test("a short heading after a long stretch of unspoken text is found before the cue that follows it")
    func shortHeadingAfterMatter() throws {
        // Given: a contents list nobody spoke between the title and the first canto.
        let contents = (1...60).map { "<li>Canto number \($0) of the poem</li>" }.joined()
        let html = "<html><body><h1>The Vision of Hell</h1><ul>\(contents)</ul><h2>CANTO I</h2><p>In the midway of this our mortal life.</p></body></html>"
        let document = try #require(XHTMLDocument(bytes: Array(html.utf8)))
        let timing = ReadAlongTiming(sampleCount: 80_000, sampleRate: 16_000, cues: [
            SubtitleCue(start: 0, end: 1, text: "The Vision of Hell"),
            SubtitleCue(start: 1, end: 2, text: "CANTO I"),
            SubtitleCue(start: 2, end: 5, text: "In the midway of this our mortal life."),
        ])

        // When
        let plan = ReadAlongPlanner.plan(documents: [document], timings: [timing], granularity: .sentence)

        // Then
        let clips = try #require(plan.documents[0]?.clips)
        #expect(clips.map(\.begin) == [0, 1_000, 2_000])
        #expect(plan.unplaced == 0)
    }
}
