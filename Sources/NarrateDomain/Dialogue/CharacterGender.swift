/// A character's gender as the text shows it, for choosing a voice and resolving pronouns.
public enum CharacterGender: String, Sendable, Equatable, Codable {
    case male = "M"
    case female = "F"
    case unknown = "U"

    /// Whether a pronoun of gender `pronoun` may refer to a character of this gender.
    func admits(_ pronoun: CharacterGender) -> Bool {
        self == .unknown || pronoun == .unknown || self == pronoun
    }
}
