import NarrateDomain
import Testing

@Suite struct LineJoinerTests {
    private let vocabulary = LayoutVocabulary(lines: [
        "a well-known face in the assembly and in every room of the house",
    ])

    @Test("a word broken by a hyphen at a line's end is mended")
    func brokenWord() {
        // When
        let joined = LineJoiner.join("the detec-", "tive smiled", vocabulary: vocabulary)

        // Then
        #expect(joined == "the detective smiled")
    }

    @Test("a compound that goes on past the break keeps its hyphen")
    func compoundGoingOn() {
        // When
        let joined = LineJoiner.join("she was three-", "and-twenty then", vocabulary: vocabulary)

        // Then
        #expect(joined == "she was three-and-twenty then")
    }

    @Test("a hyphen the document also prints inside a line is kept at a line's end")
    func realHyphen() {
        // When
        let joined = LineJoiner.join("a well-", "known man", vocabulary: vocabulary)

        // Then
        #expect(vocabulary.hyphenated == ["well-known"])
        #expect(joined == "a well-known man")
    }

    @Test("a hyphen between two words the document uses alone, and never joined, is kept")
    func compoundOfKnownWords() {
        // When
        let joined = LineJoiner.join("the assembly-", "room was full", vocabulary: vocabulary)

        // Then
        #expect(joined == "the assembly-room was full")
    }

    @Test("a hyphen before a capital is kept, and lines without one are joined by a space")
    func capitalAndSpace() {
        // When
        let compound = LineJoiner.join("the Anglo-", "Saxon king", vocabulary: vocabulary)
        let plain = LineJoiner.join("one line", "and the next", vocabulary: vocabulary)

        // Then
        #expect(compound == "the Anglo-Saxon king")
        #expect(plain == "one line and the next")
    }

    @Test("ligatures are spelled out and soft hyphens dropped, a final one mending the break")
    func ligaturesAndSoftHyphens() {
        // Given
        let first = LineJoiner.cleaned("the \u{FB01}rst \u{FB02}ag, an o\u{FB03}ce, a ba\u{FB04}e, a cli\u{FB00} for ex\u{AD}am\u{AD}")

        // When
        let joined = LineJoiner.join(first, "ple", vocabulary: vocabulary)

        // Then
        #expect(joined == "the first flag, an office, a baffle, a cliff for example")
    }
}
