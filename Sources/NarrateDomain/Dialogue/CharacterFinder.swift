/// Makes the characters of a book from the names in its text: names with a title, or names
/// that stand next to a speech verb, grouped so that "Emma", "Miss Woodhouse" and "Emma
/// Woodhouse" are one character; a gender from the titles, else from the pronouns that follow.
enum CharacterFinder {
    /// The characters of `tokens` and every place that names one, in order.
    static func characters(in tokens: [DialogueToken]) -> (characters: [StoryCharacter], mentions: [CharacterMention]) {
        let phrases = NamePhraseFinder.phrases(in: tokens)
        var counts: [String: Int] = [:]
        var speaking: Set<String> = []
        var sample: [String: NamePhrase] = [:]
        for phrase in phrases {
            counts[phrase.key, default: 0] += 1
            if sample[phrase.key] == nil { sample[phrase.key] = phrase }
            if phrase.quotation(in: tokens) == nil, standsBySpeechVerb(phrase, tokens) { speaking.insert(phrase.key) }
        }
        let kept = counts.keys.filter { key in
            guard let phrase = sample[key] else { return false }
            // A full name the text repeats ("Harriet Smith") gathers the forms that speak ("Harriet").
            return phrase.title != nil || speaking.contains(key) || (phrase.words.count > 1 && counts[key, default: 0] > 1)
        }.sorted { (counts[$0]!, $0) > (counts[$1]!, $1) }
        let groups = CharacterGrouping.group(kept.compactMap { sample[$0] }, counts: counts)
        var characterOfKey: [String: Int] = [:]
        for (index, group) in groups.enumerated() {
            for phrase in group { characterOfKey[phrase.key] = index }
        }
        // A bare word of a kept name ("Emma" of "Emma Woodhouse") names the same character.
        for phrase in phrases where characterOfKey[phrase.key] == nil && phrase.title == nil && phrase.words.count == 1 {
            if let owner = CharacterGrouping.owner(ofWord: phrase.words[0], groups: groups, counts: counts) {
                characterOfKey[phrase.key] = owner
            }
        }
        var mentions: [CharacterMention] = []
        var aliases: [[String: Int]] = Array(repeating: [:], count: groups.count)
        for phrase in phrases {
            guard let character = characterOfKey[phrase.key] else { continue }
            mentions.append(CharacterMention(character: character, first: phrase.first, last: phrase.last))
            aliases[character][phrase.display, default: 0] += 1
        }
        let votes = pronounVotes(mentions, tokens, count: groups.count)
        let characters = groups.indices.map { index in
            let names = aliases[index]
            let main = names.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key ?? groups[index][0].display
            return StoryCharacter(name: main, aliases: names.keys.sorted(), gender: gender(groups[index], votes[index]))
        }
        return (characters, mentions)
    }

    private static func standsBySpeechVerb(_ phrase: NamePhrase, _ tokens: [DialogueToken]) -> Bool {
        var before = phrase.first - 1
        if before >= 0, tokens[before].lowered == "the" { before -= 1 }
        if before >= 0, SpeechVerbs.isSpeechVerb(tokens[before].lowered) { return true }
        let after = phrase.last + 1
        return after < tokens.count && SpeechVerbs.isSpeechVerb(tokens[after].lowered)
    }

    private static func gender(_ group: [NamePhrase], _ votes: (male: Int, female: Int)) -> CharacterGender {
        var male = 0
        var female = 0
        for phrase in group {
            let title = phrase.title ?? (phrase.words.count == 1 ? phrase.words[0] : "")
            switch CharacterTitles.gender(of: title) {
            case .male: male += 1
            case .female: female += 1
            case .unknown: break
            }
        }
        if male > female { return .male }
        if female > male { return .female }
        if votes.male >= 2, votes.male >= 2 * votes.female { return .male }
        if votes.female >= 2, votes.female >= 2 * votes.male { return .female }
        return .unknown
    }

    /// For each character, how often the first pronoun after its name in narration is male or female.
    private static func pronounVotes(
        _ mentions: [CharacterMention], _ tokens: [DialogueToken], count: Int
    ) -> [(male: Int, female: Int)] {
        var votes = Array(repeating: (male: 0, female: 0), count: count)
        for (number, mention) in mentions.enumerated() where tokens[mention.first].quotation == nil {
            let limit = min(tokens.count, mention.last + 12, number + 1 < mentions.count ? mentions[number + 1].first : tokens.count)
            for index in (mention.last + 1)..<max(mention.last + 1, limit) {
                let token = tokens[index]
                guard token.quotation == nil, token.paragraph == tokens[mention.first].paragraph else { break }
                switch SpeechVerbs.pronounGender(token.lowered) {
                case .male: votes[mention.character].male += 1
                case .female: votes[mention.character].female += 1
                default: continue
                }
                break
            }
        }
        return votes
    }
}
