/// Finds a text's quotations, its characters and who speaks each quotation: a deterministic
/// sieve of rules, most precise first, that leaves a quotation unattributed when none fires.
public enum DialogueAnalyzer {
    /// The dialogue of `text`. Offsets in the result count Unicode scalars of `text`.
    public static func analyze(_ text: String) -> DialogueAnalysis {
        let scalars = Array(text.unicodeScalars)
        let paragraphs = ParagraphSplitter.paragraphs(in: scalars)
        let quotations = QuotationFinder.quotations(in: scalars, paragraphs: paragraphs)
        let tokens = DialogueTokenizer.tokens(scalars, paragraphs: paragraphs, quotations: quotations)
        var found = CharacterFinder.characters(in: tokens)
        let narrator = found.characters.count
        let context = DialogueContext(
            tokens: tokens, quotations: quotations, characters: found.characters, mentions: found.mentions)
        var decided: [(speaker: Int?, rule: AttributionRule)?] = quotations.indices.map { SpeakerSieve.local($0, context) }
        var usesNarrator = false
        for index in decided.indices where decided[index]?.rule == .firstPerson {
            decided[index] = (narrator, .firstPerson)
            usesNarrator = true
        }
        var turns = makeTurns(quotations, decided)
        ConversationRules.narrationNamesOne(&turns, context)
        ConversationRules.turnTaking(&turns, context)
        for turn in turns {
            for quote in turn.quotes where decided[quote] == nil && turn.speaker != nil {
                decided[quote] = (turn.speaker, turn.rule)
            }
        }
        if usesNarrator { found.characters.append(.narrator) }
        let parts = quotations.indices.map { index in
            QuotedPart(quotation: quotations[index], speaker: decided[index]?.speaker, rule: decided[index]?.rule ?? .unattributed)
        }
        return ranked(DialogueAnalysis(characters: found.characters, parts: parts))
    }

    /// Turns of quotations, each given the one speaker its own parts agree on.
    private static func makeTurns(
        _ quotations: [Quotation], _ decided: [(speaker: Int?, rule: AttributionRule)?]
    ) -> [DialogueTurn] {
        var turns: [DialogueTurn] = []
        for (index, quotation) in quotations.enumerated() {
            if var last = turns.last, quotation.paragraph == last.lastParagraph || quotation.continuesPrevious {
                last.quotes.append(index)
                last.lastParagraph = quotation.paragraph
                turns[turns.count - 1] = last
            } else {
                turns.append(DialogueTurn(quotes: [index], firstParagraph: quotation.paragraph, lastParagraph: quotation.paragraph))
            }
        }
        for index in turns.indices {
            let speakers = Set(turns[index].quotes.compactMap { decided[$0]?.speaker })
            if speakers.count == 1 {
                turns[index].speaker = speakers.first
                turns[index].rule = .sameTurn
            }
        }
        return turns
    }

    /// The analysis with characters ordered by lines spoken, most first, then by name.
    private static func ranked(_ analysis: DialogueAnalysis) -> DialogueAnalysis {
        let counts = analysis.lineCounts
        let order = analysis.characters.indices.sorted {
            (counts[$0], analysis.characters[$1].name) > (counts[$1], analysis.characters[$0].name)
        }
        var newIndex = Array(repeating: 0, count: order.count)
        for (position, old) in order.enumerated() { newIndex[old] = position }
        let parts = analysis.parts.map { part in
            QuotedPart(quotation: part.quotation, speaker: part.speaker.map { newIndex[$0] }, rule: part.rule)
        }
        return DialogueAnalysis(characters: order.map { analysis.characters[$0] }, parts: parts)
    }
}
