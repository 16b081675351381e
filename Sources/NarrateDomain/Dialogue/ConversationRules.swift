/// The rules of the speaker sieve that read more than one quotation: the narration of a turn's
/// paragraphs, and people taking turns in an exchange.
enum ConversationRules {
    /// Gives a speaker to turns whose paragraphs' narration names one character only.
    static func narrationNamesOne(_ turns: inout [DialogueTurn], _ context: DialogueContext) {
        for index in turns.indices where turns[index].speaker == nil {
            let turn = turns[index]
            var named: Set<Int> = []
            var inQuotes: Set<Int> = []
            var seenParagraphs: Set<Int> = []
            for quote in turn.quotes {
                inQuotes.formUnion(context.named(in: quote))
                let paragraph = context.quotations[quote].paragraph
                guard seenParagraphs.insert(paragraph).inserted else { continue }
                for token in context.narration(ofParagraph: paragraph, around: quote) {
                    if let mention = context.mentionStarting[token] { named.insert(mention.character) }
                }
            }
            if named.count == 1, let only = named.first, !inQuotes.contains(only) {
                turns[index].speaker = only
                turns[index].rule = .narrationNamesOne
            }
        }
    }

    /// Gives a speaker to turns of a two-person exchange: the one who spoke two turns back (or
    /// two turns on) when the turn between was the other's, unless the quotation names them.
    static func turnTaking(_ turns: inout [DialogueTurn], _ context: DialogueContext) {
        var changed = true
        while changed {
            changed = false
            for index in turns.indices where turns[index].speaker == nil {
                guard let speaker = alternate(index, turns) else { continue }
                let named = turns[index].quotes.reduce(into: Set<Int>()) { $0.formUnion(context.named(in: $1)) }
                guard !named.contains(speaker) else { continue }
                turns[index].speaker = speaker
                turns[index].rule = .turnTaking
                changed = true
            }
        }
    }

    private static func adjacent(_ first: Int, _ second: Int, _ turns: [DialogueTurn]) -> Bool {
        turns[second].firstParagraph == turns[first].lastParagraph + 1
    }

    private static func alternate(_ index: Int, _ turns: [DialogueTurn]) -> Int? {
        if index >= 2, adjacent(index - 1, index, turns), adjacent(index - 2, index - 1, turns),
            let earlier = turns[index - 2].speaker, let previous = turns[index - 1].speaker, earlier != previous {
            return earlier
        }
        if index + 2 < turns.count, adjacent(index, index + 1, turns), adjacent(index + 1, index + 2, turns),
            let later = turns[index + 2].speaker, let next = turns[index + 1].speaker, later != next {
            return later
        }
        return nil
    }
}
