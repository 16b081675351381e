/// Proposes a cast for a book: the narrator's voice for the narration and for quotations no
/// rule attributes, and for each character who speaks, most lines first, a voice of its own
/// from the candidates, of its gender where the book shows one. Main characters get distinct
/// voices while there are some left; past them, voices are shared, the least used first.
public enum CastProposer {
    public static func propose(_ analysis: DialogueAnalysis, narrator: String, candidates: [CastCandidate]) -> CastFile {
        let counts = analysis.lineCounts
        var uses: [String: Int] = [:]
        var characters: [CastFileCharacter] = []
        for index in analysis.characters.indices where counts[index] > 0 {
            let character = analysis.characters[index]
            let voice: String
            if character == .narrator {
                voice = narrator
            } else {
                voice = choose(for: character.gender, from: candidates, uses: uses) ?? narrator
                uses[voice, default: 0] += 1
            }
            characters.append(CastFileCharacter(
                name: character.name, voice: voice, aliases: character.aliases, gender: character.gender.rawValue, lines: counts[index]))
        }
        return CastFile(narrator: narrator, dialogue: narrator, characters: characters)
    }

    /// The least used candidate of `gender` (any candidate for an unknown one, or when none is
    /// of it), the first in order among equals.
    private static func choose(for gender: CharacterGender, from candidates: [CastCandidate], uses: [String: Int]) -> String? {
        let matching = gender == .unknown ? candidates : candidates.filter { $0.gender == gender }
        let pool = matching.isEmpty ? candidates : matching
        return pool.min { uses[$0.name, default: 0] < uses[$1.name, default: 0] }?.name
    }
}
