/// The rule of the speaker sieve that decided who speaks a quotation, most precise first.
public enum AttributionRule: String, Sendable, Equatable, Codable, CaseIterable {
    /// A name or title next to a speech verb: "said Emma", "Mr. Knightley replied".
    case nameBySpeechVerb = "name-speech-verb"
    /// "I said": the narrator of a first-person book.
    case firstPerson = "first-person"
    /// A pronoun next to a speech verb ("cried she"), resolved to the last character named
    /// before it whose gender fits.
    case pronounBySpeechVerb = "pronoun-speech-verb"
    /// Another part of the same paragraph, or of the same quotation over paragraphs, was decided.
    case sameTurn = "same-turn"
    /// The paragraph's narration names one character only, who is not named in the quotation.
    case narrationNamesOne = "narration-names-one"
    /// Two people take turns: the speaker two paragraphs back (or on), not addressed in the quotation.
    case turnTaking = "turn-taking"
    /// No rule fired: read in the cast's default dialogue voice.
    case unattributed
}
