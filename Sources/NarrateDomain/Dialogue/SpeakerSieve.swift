/// The local rules of the speaker sieve: who a speech verb beside a quotation names.
enum SpeakerSieve {
    /// What the words beside a speech verb name as its speaker.
    enum Subject: Equatable {
        case character(Int)
        case pronoun(CharacterGender)
        case firstPerson
    }

    /// The speaker of quotation `quote` as a speech verb beside it says, with the rule.
    static func local(_ quote: Int, _ context: DialogueContext) -> (speaker: Int?, rule: AttributionRule)? {
        let range = context.quoteTokens[quote]
        guard !range.isEmpty else { return nil }
        let subject = after(range.upperBound, context) ?? before(range.lowerBound, context)
        switch subject {
        case .character(let character): return (character, .nameBySpeechVerb)
        case .firstPerson: return (nil, .firstPerson)
        case .pronoun(let gender):
            // Whoever the quotation addresses or speaks of is not its speaker.
            let named = context.named(in: quote)
            guard let character = context.lastCharacter(before: range.lowerBound, fitting: gender, excluding: named) else {
                return nil
            }
            return (character, .pronounBySpeechVerb)
        case nil: return nil
        }
    }

    /// `"…," said Emma` or `"…," Emma replied`: the first clause of the narration after the quote.
    private static func after(_ start: Int, _ context: DialogueContext) -> Subject? {
        let tokens = context.tokens
        guard start < tokens.count, tokens[start].quotation == nil, tokens[start].paragraph == tokens[start - 1].paragraph else {
            return nil
        }
        var end = start
        while end < tokens.count, end - start < 8, tokens[end].quotation == nil, tokens[end].paragraph == tokens[start].paragraph {
            if [".", "!", "?", ";", ":"].contains(tokens[end].text), !(end > start && CharacterTitles.isAbbreviation(tokens[end - 1].text)) {
                break
            }
            end += 1
        }
        guard let verb = (start..<end).first(where: { SpeechVerbs.isSpeechVerb(tokens[$0].lowered) }) else { return nil }
        return subject(following: verb, limit: end, context) ?? subject(before: verb, from: start, context)
    }

    /// `Emma said, "…"`: the sentence of narration just before the quote, its verb near the end.
    private static func before(_ quoteStart: Int, _ context: DialogueContext) -> Subject? {
        let tokens = context.tokens
        var quoteStart = quoteStart
        while quoteStart > 0, tokens[quoteStart - 1].quotation == nil,
            ["\"", "\u{201C}", "'", "\u{2018}", "\u{00AB}", "\u{00BB}", "\u{201E}"].contains(tokens[quoteStart - 1].text) {
            quoteStart -= 1  // the opening mark
        }
        guard quoteStart > 0, tokens[quoteStart - 1].quotation == nil else { return nil }
        let paragraph = tokens[quoteStart - 1].paragraph
        if paragraph != tokens[quoteStart].paragraph {
            // "Emma exclaimed," ending the paragraph before: the quotation is what she exclaimed.
            let last = tokens[quoteStart - 1]
            guard paragraph == tokens[quoteStart].paragraph - 1,
                [",", ":", "-", "\u{2014}"].contains(last.text) || SpeechVerbs.isSpeechVerb(last.lowered) else { return nil }
        }
        var start = quoteStart - 1
        while start > 0, tokens[start - 1].quotation == nil, tokens[start - 1].paragraph == paragraph,
            !["!", "?", ";"].contains(tokens[start - 1].text),
            !(tokens[start - 1].text == "." && !(start >= 2 && CharacterTitles.isAbbreviation(tokens[start - 2].text))) {
            start -= 1
        }
        guard let verb = stride(from: quoteStart - 1, through: max(start, quoteStart - 5), by: -1)
            .first(where: { SpeechVerbs.isSpeechVerb(tokens[$0].lowered) }) else { return nil }
        if let subject = subject(following: verb, limit: quoteStart, context) ?? subject(before: verb, from: start, context) {
            return subject
        }
        for index in start..<verb {
            if let mention = context.mentionStarting[index], !isPossessive(mention, context) {
                return .character(mention.character)
            }
            if let gender = SpeechVerbs.pronounGender(tokens[index].lowered), tokens[index].lowered == "he" || tokens[index].lowered == "she" {
                return .pronoun(gender)
            }
            if SpeechVerbs.isFirstPerson(tokens[index].lowered) { return .firstPerson }
        }
        return nil
    }

    /// "said Emma", "said the King", "cried she", "said I".
    private static func subject(following verb: Int, limit: Int, _ context: DialogueContext) -> Subject? {
        var index = verb + 1
        if index < limit, context.tokens[index].lowered == "the" { index += 1 }
        guard index < limit else { return nil }
        if let mention = context.mentionStarting[index], !isPossessive(mention, context) {
            return .character(mention.character)
        }
        let word = context.tokens[index].lowered
        if word == "he" || word == "she" { return SpeechVerbs.pronounGender(word).map(Subject.pronoun) }
        if SpeechVerbs.isFirstPerson(word) { return .firstPerson }
        return nil
    }

    /// "Emma said", "Mr. Knightley quietly replied", "she said".
    private static func subject(before verb: Int, from start: Int, _ context: DialogueContext) -> Subject? {
        var index = verb - 1
        if index > start, context.tokens[index].isWord, !context.tokens[index].isCapitalized,
            context.tokens[index].lowered.hasSuffix("ly") {
            index -= 1  // an adverb between subject and verb
        }
        guard index >= start else { return nil }
        let word = context.tokens[index].lowered
        if word == "he" || word == "she" { return SpeechVerbs.pronounGender(word).map(Subject.pronoun) }
        if SpeechVerbs.isFirstPerson(word) { return .firstPerson }
        guard let mention = context.mentionEnding[index], !isPossessive(mention, context) else { return nil }
        return .character(mention.character)
    }

    private static func isPossessive(_ mention: CharacterMention, _ context: DialogueContext) -> Bool {
        mention.last + 1 < context.tokens.count && context.tokens[mention.last + 1].text == "'s"
    }
}
