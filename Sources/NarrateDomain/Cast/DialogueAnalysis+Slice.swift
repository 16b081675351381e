extension DialogueAnalysis {
    /// The analysis of the scalars `start..<end` of its text, as if that were the whole text:
    /// the parts within it (cut at its ends), their offsets from `start`. The characters stay.
    public func slice(_ start: Int, _ end: Int) -> DialogueAnalysis {
        let parts = parts.compactMap { part -> QuotedPart? in
            let quotation = part.quotation
            let from = max(quotation.start, start)
            let to = min(quotation.end, end)
            guard from < to else { return nil }
            let cut = Quotation(
                start: from - start, end: to - start, text: quotation.text, paragraph: quotation.paragraph,
                continuesPrevious: quotation.continuesPrevious)
            return QuotedPart(quotation: cut, speaker: part.speaker, rule: part.rule)
        }
        return DialogueAnalysis(characters: characters, parts: parts)
    }
}
