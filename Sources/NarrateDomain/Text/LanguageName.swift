/// Language names as book headers write them ("Dutch", "English; Latin", "nl", "pt-BR") mapped to
/// BCP 47 tags that eSpeak voices answer to.
public enum LanguageName {
    /// The BCP 47 tag for `name`: a tag is kept as it is (lower-cased, `_` → `-`), an English or
    /// native language name becomes its code. For a list ("English, French" or "English; Latin")
    /// the first language counts. `nil` when the name is not a language this table knows.
    public static func tag(for name: String) -> String? {
        let first = name.split(whereSeparator: { $0 == ";" || $0 == "," || $0 == "/" || $0 == "&" }).first.map(String.init) ?? name
        let trimmed = String(first.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        let lowered = trimmed.lowercased()
        guard !lowered.isEmpty else { return nil }
        if let code = names[lowered] { return code }
        if isTag(lowered) { return lowered.replacingUnderscores }
        // "Middle English", "Old French (842-ca.1400)": the base language.
        for word in lowered.split(whereSeparator: { !$0.isLetter }).reversed() {
            if let code = names[String(word)] { return code }
        }
        return nil
    }

    /// "en", "nl-NL", "pt_BR", "zh-Hant": two or three letters, then subtags.
    private static func isTag(_ text: String) -> Bool {
        let parts = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "-" || $0 == "_" })
        guard let primary = parts.first, (2...3).contains(primary.count), primary.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            return false
        }
        return parts.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }

    /// English names (as Project Gutenberg writes them) and native names of the languages
    /// eSpeak NG speaks, lower-cased.
    static let names: [String: String] = [
        "afrikaans": "af", "albanian": "sq", "amharic": "am", "arabic": "ar", "armenian": "hy", "assamese": "as",
        "azerbaijani": "az", "basque": "eu", "euskara": "eu", "belarusian": "be", "bengali": "bn", "bosnian": "bs",
        "bulgarian": "bg", "burmese": "my", "catalan": "ca", "català": "ca", "chinese": "cmn", "mandarin": "cmn",
        "cantonese": "yue", "croatian": "hr", "hrvatski": "hr", "czech": "cs", "čeština": "cs", "danish": "da", "dansk": "da",
        "dutch": "nl", "flemish": "nl", "nederlands": "nl", "english": "en", "esperanto": "eo", "estonian": "et",
        "eesti": "et", "finnish": "fi", "suomi": "fi", "french": "fr", "français": "fr", "francais": "fr",
        "galician": "gl", "georgian": "ka", "german": "de", "deutsch": "de", "greek": "el", "ελληνικά": "el",
        "gujarati": "gu", "hebrew": "he", "hindi": "hi", "hungarian": "hu", "magyar": "hu", "icelandic": "is",
        "íslenska": "is", "indonesian": "id", "irish": "ga", "gaeilge": "ga", "italian": "it", "italiano": "it",
        "japanese": "ja", "kannada": "kn", "kazakh": "kk", "korean": "ko", "kurdish": "ku", "latin": "la",
        "latina": "la", "latvian": "lv", "lithuanian": "lt", "luxembourgish": "lb", "macedonian": "mk", "malay": "ms",
        "malayalam": "ml", "maltese": "mt", "maori": "mi", "marathi": "mr", "mongolian": "mn", "nepali": "ne",
        "norwegian": "nb", "norsk": "nb", "bokmål": "nb", "occitan": "oc", "oriya": "or", "persian": "fa",
        "farsi": "fa", "polish": "pl", "polski": "pl", "portuguese": "pt", "português": "pt", "punjabi": "pa",
        "romanian": "ro", "română": "ro", "russian": "ru", "русский": "ru", "sanskrit": "sa", "scottish gaelic": "gd",
        "gaelic": "gd", "serbian": "sr", "sindhi": "sd", "sinhala": "si", "slovak": "sk", "slovenian": "sl",
        "spanish": "es", "español": "es", "castilian": "es", "swahili": "sw", "swedish": "sv", "svenska": "sv",
        "tagalog": "tl", "filipino": "fil", "tamil": "ta", "tatar": "tt", "telugu": "te", "thai": "th",
        "turkish": "tr", "türkçe": "tr", "ukrainian": "uk", "urdu": "ur", "uzbek": "uz", "vietnamese": "vi",
        "welsh": "cy", "cymraeg": "cy", "yiddish": "yi",
    ]
}

private extension String {
    var replacingUnderscores: String { String(map { $0 == "_" ? "-" : $0 }) }
}
