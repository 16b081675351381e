import NarrateKit

/// One quoted part as `narrate cast --quotes --json` prints it.
struct CastQuoteRecord: Encodable {
    let text: String
    /// The speaker's main name; null when unattributed.
    let speaker: String?
    let rule: String
    /// Offsets in Unicode code points into the file's decoded text (plain-text input only).
    let start: Int?
    let end: Int?

    init(_ part: QuotedPart, in analysis: DialogueAnalysis, offsets: Bool) {
        text = part.quotation.text
        speaker = analysis.speakerName(of: part)
        rule = part.rule.rawValue
        start = offsets ? part.quotation.start : nil
        end = offsets ? part.quotation.end : nil
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(text, forKey: .text)
        try container.encode(speaker, forKey: .speaker)  // null, not absent, when unattributed
        try container.encode(rule, forKey: .rule)
        try container.encodeIfPresent(start, forKey: .start)
        try container.encodeIfPresent(end, forKey: .end)
    }

    private enum CodingKeys: String, CodingKey { case text, speaker, rule, start, end }
}
