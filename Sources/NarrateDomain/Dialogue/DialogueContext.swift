/// Everything the speaker rules read: the tokens, the quotations and their tokens, the
/// characters and where the text names them.
struct DialogueContext {
    let tokens: [DialogueToken]
    let quotations: [Quotation]
    let characters: [StoryCharacter]
    let mentions: [CharacterMention]
    /// The tokens of each quotation (empty when it holds none).
    let quoteTokens: [Range<Int>]
    /// The mention that starts at a token, by token index.
    let mentionStarting: [Int: CharacterMention]
    /// The mention that ends at a token, by token index.
    let mentionEnding: [Int: CharacterMention]
    /// The mentions in narration, in order.
    let narrationMentions: [CharacterMention]

    init(tokens: [DialogueToken], quotations: [Quotation], characters: [StoryCharacter], mentions: [CharacterMention]) {
        self.tokens = tokens
        self.quotations = quotations
        self.characters = characters
        self.mentions = mentions
        var ranges = Array(repeating: 0..<0, count: quotations.count)
        var index = 0
        while index < tokens.count {
            guard let quote = tokens[index].quotation else {
                index += 1
                continue
            }
            let start = index
            while index < tokens.count, tokens[index].quotation == quote { index += 1 }
            ranges[quote] = start..<index
        }
        quoteTokens = ranges
        mentionStarting = Dictionary(mentions.map { ($0.first, $0) }, uniquingKeysWith: { first, _ in first })
        mentionEnding = Dictionary(mentions.map { ($0.last, $0) }, uniquingKeysWith: { first, _ in first })
        narrationMentions = mentions.filter { tokens[$0.first].quotation == nil }
    }

    /// The characters named inside quotation `quote`: whoever is addressed or spoken of is not the speaker.
    func named(in quote: Int) -> Set<Int> {
        Set(quoteTokens[quote].compactMap { mentionStarting[$0]?.character })
    }

    /// The last character named in narration before token `index` whose gender fits `gender`,
    /// other than `excluded`, looking back no further than `reach` tokens.
    func lastCharacter(
        before index: Int, fitting gender: CharacterGender, excluding excluded: Set<Int> = [], reach: Int = 400
    ) -> Int? {
        var low = 0
        var high = narrationMentions.count
        while low < high {
            let middle = (low + high) / 2
            if narrationMentions[middle].first < index { low = middle + 1 } else { high = middle }
        }
        var position = low - 1
        while position >= 0, narrationMentions[position].first >= index - reach {
            let mention = narrationMentions[position]
            let character = characters[mention.character]
            let possessive = mention.last + 1 < tokens.count && tokens[mention.last + 1].lowered == "'s"
            if !possessive, character.gender == gender, !excluded.contains(mention.character) { return mention.character }
            position -= 1
        }
        return nil
    }

    /// The narration tokens of paragraph `paragraph`.
    func narration(ofParagraph paragraph: Int, around quote: Int) -> [Int] {
        let range = quoteTokens[quote]
        guard !range.isEmpty else { return [] }
        var start = range.lowerBound
        while start > 0, tokens[start - 1].paragraph == paragraph { start -= 1 }
        var end = range.upperBound
        while end < tokens.count, tokens[end].paragraph == paragraph { end += 1 }
        return (start..<end).filter { tokens[$0].quotation == nil }
    }
}
