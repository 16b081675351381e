/// A quoted part of a book with who speaks it and why.
public struct QuotedPart: Sendable, Equatable {
    /// Where the part stands and what it says.
    public let quotation: Quotation
    /// The index of its speaker in `DialogueAnalysis.characters`, or nil when unattributed.
    public let speaker: Int?
    /// The rule that decided the speaker.
    public let rule: AttributionRule

    public init(quotation: Quotation, speaker: Int?, rule: AttributionRule) {
        self.quotation = quotation
        self.speaker = speaker
        self.rule = rule
    }
}
