/// Verbs that say a quotation was spoken, and the pronouns that may stand for its speaker.
enum SpeechVerbs {
    private static let verbs: Set<String> = [
        "said", "says", "say", "saying", "cried", "cries", "replied", "replies", "answered", "answers", "asked",
        "asks", "exclaimed", "returned", "continued", "added", "observed", "remarked", "whispered", "muttered",
        "shouted", "called", "began", "repeated", "rejoined", "resumed", "interrupted", "inquired", "enquired",
        "demanded", "declared", "murmured", "sighed", "laughed", "retorted", "protested", "explained", "urged",
        "pleaded", "responded", "agreed", "suggested", "persisted", "insisted", "stammered", "groaned", "growled",
        "roared", "sobbed", "gasped", "yelled", "snapped", "shrieked", "screamed", "ventured", "pursued",
        "concluded", "echoed", "faltered", "hissed", "thundered", "bawled", "grumbled", "whimpered", "wailed",
        "moaned", "panted", "sneered", "cried", "smiled", "nodded", "thought", "went", "ejaculated", "admitted",
        "assented", "objected", "rejoined", "reasoned", "squeaked", "sang", "called", "told", "announced",
        "breathed", "chuckled", "giggled", "interposed", "joined", "proceeded", "recollected", "reflected",
        "returned", "spoke", "stated", "uttered", "whined", "wondered", "argued", "corrected", "conceded",
        "dit", "répondit", "demanda", "s'écria", "dijo", "respondió", "preguntó", "exclamó", "sagte", "fragte",
    ]

    /// Whether `word` (in lower case) says that someone spoke.
    static func isSpeechVerb(_ word: String) -> Bool { verbs.contains(word) }

    /// The gender a subject pronoun shows, nil for a word that is no such pronoun; "I" is the
    /// narrator's and answers `.unknown` through `isFirstPerson`.
    static func pronounGender(_ word: String) -> CharacterGender? {
        switch word {
        case "he", "him", "his", "himself": .male
        case "she", "her", "hers", "herself": .female
        default: nil
        }
    }

    /// Whether `word` is the narrator speaking of themself.
    static func isFirstPerson(_ word: String) -> Bool { word == "i" }
}
