/// What a Kokoro voice's name says of it: its first letter names the language (and the eSpeak
/// NG language that phonemizes for it), its second the speaker's gender (`af_heart`: American
/// English, female).
public struct KokoroLanguage: Sendable, Hashable {
    /// The voice prefix's letter (`a`).
    public let code: Character
    /// eSpeak NG's language for its text (`en-us`).
    public let espeakLanguage: String
    /// A language tag for listings (`en-US`).
    public let tag: String

    /// The languages Kokoro-82M speaks, by prefix letter.
    public static let all: [KokoroLanguage] = [
        KokoroLanguage(code: "a", espeakLanguage: "en-us", tag: "en-US"),
        KokoroLanguage(code: "b", espeakLanguage: "en-gb", tag: "en-GB"),
        KokoroLanguage(code: "e", espeakLanguage: "es", tag: "es"),
        KokoroLanguage(code: "f", espeakLanguage: "fr-fr", tag: "fr-FR"),
        KokoroLanguage(code: "h", espeakLanguage: "hi", tag: "hi"),
        KokoroLanguage(code: "i", espeakLanguage: "it", tag: "it"),
        KokoroLanguage(code: "p", espeakLanguage: "pt-br", tag: "pt-BR"),
        KokoroLanguage(code: "j", espeakLanguage: "ja", tag: "ja"),
        KokoroLanguage(code: "z", espeakLanguage: "cmn", tag: "zh"),
    ]

    /// The language of a voice name, `nil` when its first letter names none of Kokoro's.
    public static func of(voice name: String) -> KokoroLanguage? {
        guard let first = name.lowercased().first else { return nil }
        return all.first { $0.code == first }
    }

    /// The speaker's gender from the name's second letter (`f`, `m`).
    public static func gender(of name: String) -> Voice.Gender {
        let letters = Array(name.lowercased())
        guard letters.count > 1 else { return .unspecified }
        return letters[1] == "f" ? .female : letters[1] == "m" ? .male : .unspecified
    }
}
