@testable import NarrateDomain
import Testing

/// One segment (a sentence or more with its marks) into cues, without the builder around it.
@Suite struct SubtitleCueSplitterTests {
    /// 10 samples a second keeps the numbers readable.
    static let sampleRate = 10

    private func splitter(_ text: String, maxSeconds: Double) -> SubtitleCueSplitter {
        let scalars = Array(text.unicodeScalars)
        var offsets = [0]
        for scalar in scalars { offsets.append(offsets[offsets.count - 1] + UTF8.width(scalar)) }
        return SubtitleCueSplitter(
            scalars: scalars, utf8: Array(text.utf8), utf8Offsets: offsets, sampleRate: Double(Self.sampleRate),
            maxSamples: maxSeconds * Double(Self.sampleRate)
        )
    }

    /// A mark for each word of `text` (split at spaces), the n-th spoken at `starts[n]`.
    private func marks(_ text: String, starts: [Int]) -> [WordMark] {
        var marks: [WordMark] = []
        var offset = 0
        for (index, word) in text.split(separator: " ", omittingEmptySubsequences: false).enumerated() {
            let length = word.unicodeScalars.count
            if length > 0, index < starts.count {
                marks.append(WordMark(textOffset: offset, textLength: length, sampleOffset: starts[index]))
            }
            offset += length + 1
        }
        return marks
    }

    @Test("Given a short segment with runs of white space, when cut, then one cue comes, its text and words folded and timed")
    func shortSegment() {
        // Given
        let text = "  Call\n me   Ishmael. "
        let sut = splitter(text, maxSeconds: 7)
        let marks = [
            WordMark(textOffset: 2, textLength: 4, sampleOffset: 5),
            WordMark(textOffset: 8, textLength: 2, sampleOffset: 10),
            WordMark(textOffset: 13, textLength: 7, sampleOffset: 15),
        ]
        var cues: [SubtitleCue] = []

        // When
        sut.appendCues(of: .init(text: 0..<text.unicodeScalars.count, marks: marks, start: 5), end: 30, to: &cues)

        // Then
        #expect(cues.count == 1)
        #expect(cues.first?.text == "Call me Ishmael.")
        #expect(cues.first?.start == 0.5)
        #expect(cues.first?.end == 3)
        #expect(cues.first?.words.map(\.text) == ["Call", "me", "Ishmael"])
        #expect(cues.first?.words.map(\.end) == [1, 1.5, 3])
    }

    @Test("Given a segment longer than the limit, when cut, then the cut falls after the comma nearest the middle and no cue is too long")
    func longSegmentCutAtComma() {
        // Given: 12 words a second apart, a comma after the fifth
        let text = "one two three four five, six seven eight nine ten eleven twelve."
        let sut = splitter(text, maxSeconds: 7)
        let marks = marks(text, starts: (0..<12).map { $0 * 10 })
        var cues: [SubtitleCue] = []

        // When
        sut.appendCues(of: .init(text: 0..<text.unicodeScalars.count, marks: marks, start: 0), end: 120, to: &cues)

        // Then
        #expect(cues.map(\.text) == ["one two three four five,", "six seven eight nine ten eleven twelve."])
        #expect(cues.map(\.start) == [0, 5])
        #expect(cues.map(\.end) == [5, 12])
        #expect(cues.allSatisfy { $0.end - $0.start <= 7 })
    }

    @Test("Given one word longer than the limit, when cut, then it stays whole in one cue")
    func longWordStaysWhole() {
        let text = "Supercalifragilistic."
        let sut = splitter(text, maxSeconds: 1)
        var cues: [SubtitleCue] = []

        sut.appendCues(of: .init(text: 0..<text.unicodeScalars.count, marks: [WordMark(textOffset: 0, textLength: 20, sampleOffset: 0)], start: 0), end: 50, to: &cues)

        #expect(cues.map(\.text) == ["Supercalifragilistic."])
        #expect(cues.map(\.end) == [5])
    }
}
