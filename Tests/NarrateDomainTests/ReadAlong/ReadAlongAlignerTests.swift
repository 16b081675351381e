import NarrateDomain
import Testing

@Suite struct ReadAlongAlignerTests {
    private func scalars(_ text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { !XHTMLDocument.isIgnorable($0) }
    }

    @Test("pieces are found in order, across whitespace and a page number the speech left out")
    func inOrder() throws {
        // Given
        var sut = ReadAlongAligner(documents: [scalars("Call me Ishmael. Some years [Pg 2] ago, never mind.")])

        // When
        let firstFound = sut.next("Call me Ishmael.")
        let secondFound = sut.next("Some years ago, never mind.")
        let first = try #require(firstFound)
        let second = try #require(secondFound)

        // Then
        #expect(first == .init(document: 0, scalars: 0...13))
        #expect(second.scalars.lowerBound == 14)
        #expect(second.scalars.upperBound == scalars("Call me Ishmael. Some years [Pg 2] ago, never mind.").count - 1)
    }

    @Test("skipped front matter is stepped over, and the next document searched when this one has no more")
    func skipsMatter() {
        let licence = String(repeating: "This eBook is for the use of anyone anywhere. ", count: 40)
        var sut = ReadAlongAligner(documents: [scalars(licence + "Chapter one begins here."), scalars("Chapter two follows it.")])

        let first = sut.next("Chapter one begins here.")
        let second = sut.next("Chapter two follows it.")
        #expect(first?.document == 0)
        #expect(second == .init(document: 1, scalars: 0...19))
    }

    @Test("a short piece that is not near is not taken from far away")
    func shortPieceStaysNear() {
        let far = String(repeating: "Words that were read aloud. ", count: 40)
        var sut = ReadAlongAligner(documents: [scalars("A start sentence here. " + far + "No.")])
        let start = sut.next("A start sentence here.")
        let short = sut.next("No.")
        let next = sut.next("Words that were read aloud.")

        #expect(start != nil)
        #expect(short == nil)
        #expect(next != nil)
    }
}
