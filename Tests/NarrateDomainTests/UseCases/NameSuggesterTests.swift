import Testing

@testable import NarrateDomain

@Suite struct NameSuggesterTests {
    let voices = ["narrator", "calm", "en-us", "en-gb", "en", "fr-fr", "fr", "de"]

    @Test("A typo suggests the close name")
    func typoSuggestsCloseName() {
        #expect(NameSuggester.suggestions(for: "narator", among: voices) == ["narrator"])
        #expect(NameSuggester.suggestions(for: "clam", among: voices) == ["calm"])
    }

    @Test("Closest names come first, then alphabetical, at most three")
    func closestFirstAndLimited() {
        // "en-uss": en-us is 1 edit away; en-gb 3, beyond the threshold of 2.
        #expect(NameSuggester.suggestions(for: "en-uss", among: voices) == ["en-us"])
        // "en-u" starts en-us (counted as 1), en is 2 edits away, en-gb 2.
        #expect(NameSuggester.suggestions(for: "en-u", among: voices) == ["en-us", "en", "en-gb"])
        #expect(NameSuggester.suggestions(for: "en-u", among: voices, limit: 1) == ["en-us"])
    }

    @Test("Names that start with the input count as close")
    func prefixCountsAsClose() {
        #expect(NameSuggester.suggestions(for: "narr", among: voices) == ["narrator"])
    }

    @Test("Matching ignores case and a name is suggested once")
    func caseInsensitiveAndDeduplicated() {
        #expect(NameSuggester.suggestions(for: "NARATOR", among: ["Narrator", "narrator"]) == ["Narrator"])
    }

    @Test("An unrelated name gets no suggestions", arguments: ["zzzzzz", "klingon", "piano"])
    func unrelatedGetsNothing(name: String) {
        #expect(NameSuggester.suggestions(for: name, among: voices).isEmpty)
    }

    @Test("No candidates, no suggestions")
    func noCandidates() {
        #expect(NameSuggester.suggestions(for: "narrator", among: []).isEmpty)
    }

    @Test("Edit distance counts insertions, deletions and substitutions")
    func editDistance() {
        func distance(_ a: String, _ b: String) -> Int {
            NameSuggester.editDistance(Array(a.unicodeScalars), Array(b.unicodeScalars))
        }
        #expect(distance("", "abc") == 3)
        #expect(distance("kitten", "sitting") == 3)
        #expect(distance("same", "same") == 0)
    }
}
