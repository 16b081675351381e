/// Titles that come before a name (Mr., Mrs., Miss, Dr., Lady, Captain…) and what they say of
/// the gender of the one named.
enum CharacterTitles {
    private static let male: Set<String> = [
        "mr", "mister", "master", "sir", "lord", "colonel", "col", "captain", "capt", "admiral", "general",
        "major", "lieutenant", "sergeant", "rev", "reverend", "father", "uncle", "brother", "monsieur", "m",
        "herr", "señor", "senor", "don", "signor", "king", "prince", "duke", "earl", "baron", "count", "squire",
    ]
    private static let female: Set<String> = [
        "mrs", "miss", "ms", "madam", "madame", "mme", "mlle", "mademoiselle", "lady", "dame", "mother", "aunt",
        "sister", "frau", "fräulein", "señora", "senora", "señorita", "doña", "signora", "queen", "princess",
        "duchess", "countess", "baroness",
    ]
    private static let neutral: Set<String> = ["dr", "doctor", "professor", "prof", "judge"]
    private static let abbreviations: Set<String> = [
        "mr", "mrs", "ms", "dr", "st", "col", "capt", "rev", "prof", "mme", "mlle", "gen", "lt", "sgt", "m",
    ]

    /// Whether `word` is a title.
    static func isTitle(_ word: String) -> Bool {
        let lowered = word.lowercased()
        return male.contains(lowered) || female.contains(lowered) || neutral.contains(lowered)
    }

    /// Whether `word` followed by a period is an abbreviation rather than a sentence's end.
    static func isAbbreviation(_ word: String) -> Bool {
        abbreviations.contains(word.lowercased()) || (word.count == 1 && word.first?.isUppercase == true)
    }

    /// The gender a title shows.
    static func gender(of title: String) -> CharacterGender {
        let lowered = title.lowercased()
        if male.contains(lowered) { return .male }
        if female.contains(lowered) { return .female }
        return .unknown
    }

    /// The title as printed in a name: abbreviations keep their period.
    static func display(_ title: String) -> String {
        let lowered = title.lowercased()
        return abbreviations.contains(lowered) && lowered.count > 1 ? title + "." : title
    }
}
