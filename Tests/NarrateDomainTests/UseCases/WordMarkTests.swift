import Testing

@testable import NarrateDomain

@Suite struct WordMarkTests {
    @Test("Shifting moves the text and sample offsets and keeps the length")
    func shiftMovesOffsets() {
        // Given
        let mark = WordMark(textOffset: 3, textLength: 5, sampleOffset: 100)

        // When
        let shifted = mark.shifted(text: 1_000, samples: 22_050)

        // Then
        #expect(shifted == WordMark(textOffset: 1_003, textLength: 5, sampleOffset: 22_150))
    }

    @Test("Shifting by zero gives the same mark")
    func zeroShiftIsIdentity() {
        let mark = WordMark(textOffset: 7, textLength: 2, sampleOffset: 40)
        #expect(mark.shifted(text: 0, samples: 0) == mark)
    }
}
