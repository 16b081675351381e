import NarrateDomain
import Testing

@Suite struct CastProposerTests {
    private func analysis(_ characters: [(String, CharacterGender, Int)]) -> DialogueAnalysis {
        var parts: [QuotedPart] = []
        for (index, character) in characters.enumerated() {
            for line in 0..<character.2 {
                parts.append(QuotedPart(quotation: Quotation(start: parts.count * 10, end: parts.count * 10 + 5, text: "line \(line)", paragraph: parts.count), speaker: index, rule: .nameBySpeechVerb))
            }
        }
        return DialogueAnalysis(characters: characters.map { StoryCharacter(name: $0.0, aliases: [$0.0], gender: $0.1) }, parts: parts)
    }

    @Test("eSpeak's candidates are the narrator's language with its steady female and male variants, not its own")
    func espeakCandidates() {
        // When
        let candidates = CastCandidate.candidates(beside: VoiceProfile(voice: "en-gb+m3"), named: "en-gb+m3", installed: [])

        // Then
        #expect(candidates.filter { $0.gender == .female }.map(\.name) == ["en-gb+f1", "en-gb+f4"])
        #expect(candidates.filter { $0.gender == .male }.map(\.name) == ["en-gb+m1", "en-gb+m2", "en-gb+m4", "en-gb+m5", "en-gb+m6", "en-gb+m7"])
    }

    @Test("characters who speak get distinct voices of their gender, most lines first; the silent none; past the candidates, the least used")
    func distinctAndGendered() {
        // Given
        let book = analysis([("Emma", .female, 9), ("Mr. Knightley", .male, 7), ("Harriet", .female, 5), ("Mr. Elton", .male, 3), ("Jane", .female, 2), ("Mr. Perry", .male, 0)])
        let candidates = [CastCandidate(name: "f1", gender: .female), CastCandidate(name: "f4", gender: .female), CastCandidate(name: "m1", gender: .male), CastCandidate(name: "m2", gender: .male)]

        // When
        let cast = CastProposer.propose(book, narrator: "en-us", candidates: candidates)

        // Then
        #expect(cast.narrator == "en-us")
        #expect(cast.dialogue == "en-us")
        #expect(cast.characters.map(\.name) == ["Emma", "Mr. Knightley", "Harriet", "Mr. Elton", "Jane"])
        #expect(cast.characters.map(\.voice) == ["f1", "m1", "f4", "m2", "f1"])
        #expect(cast.characters.map(\.lines) == [9, 7, 5, 3, 2])
    }

    @Test("the narrator of a first-person book reads its own lines; without candidates (a remote voice) everyone is the narrator")
    func narratorAndNoCandidates() {
        // Given
        let book = analysis([("narrator", .unknown, 4), ("Heathcliff", .male, 2)])
        let first = DialogueAnalysis(characters: [StoryCharacter.narrator, book.characters[1]], parts: book.parts)

        // When
        let cast = CastProposer.propose(first, narrator: "alloy", candidates: [])

        // Then
        #expect(cast.characters.map(\.voice) == ["alloy", "alloy"])
    }
}
