/// Converts a pronunciation in IPA or X-SAMPA into eSpeak NG's phoneme mnemonics, the input
/// eSpeak reads between `[[` and `]]`.
///
/// eSpeak's mnemonics are per language: English (`en`) has its own names for the rhotic and
/// reduced vowels (`3`, `a#`, `i@`), the other languages share the Kirshenbaum-like names of
/// eSpeak's base tables (`Y` for ø, `W` for œ, `n^` for ɲ). A symbol outside the table is not
/// guessed: the conversion fails naming it, and the caller reads the word as written.
public enum PhonemeConverter {
    /// Bumped whenever a conversion changes, so audio cached with the old one is not reused.
    public static let version = 1

    /// A symbol the conversion does not know.
    public struct Unconvertible: Error, Sendable, Equatable {
        public var symbol: String

        public init(symbol: String) {
            self.symbol = symbol
        }
    }

    /// `phonemes` (in `alphabet`: `ipa` or `x-sampa`) as eSpeak mnemonics for `language`
    /// (a language tag or an eSpeak voice name's language, `en`, `de`, …).
    public static func espeak(_ phonemes: String, alphabet: String, language: String) -> Result<String, Unconvertible> {
        let ipa: String
        switch alphabet.lowercased() {
        case "ipa":
            ipa = phonemes
        case "x-sampa", "xsampa", "x-sampa-1":
            switch XSAMPA.ipa(phonemes) {
            case let .success(text): ipa = text
            case let .failure(error): return .failure(error)
            }
        default:
            return .failure(Unconvertible(symbol: "alphabet \(alphabet)"))
        }
        return espeak(ipa: ipa, english: PronunciationLexicon.primaryLanguage(of: language) == "en")
    }

    /// IPA to eSpeak mnemonics. Tie bars, syllable dots and the slashes or brackets around a
    /// transcription are dropped; stress marks stay where IPA puts them (eSpeak moves a mark
    /// before a syllable onto its vowel).
    static func espeak(ipa: String, english: Bool) -> Result<String, Unconvertible> {
        let scalars = Array(ipa.unicodeScalars).filter { !ignored.contains($0) }
        var out = ""
        var index = 0
        var pendingSpace = false
        scan: while index < scalars.count {
            if scalars[index].properties.isWhitespace {
                pendingSpace = !out.isEmpty
                index += 1
                continue
            }
            if pendingSpace { out += " " }
            pendingSpace = false
            for length in stride(from: min(3, scalars.count - index), through: 1, by: -1) {
                var symbol = ""
                symbol.unicodeScalars.append(contentsOf: scalars[index..<index + length])
                // The next sound, past stress and length marks.
                let next = scalars[(index + length)...].first { !marks.contains($0) }
                if english, let mnemonic = englishTable[symbol] {
                    if merged.contains(symbol), let next, vowels.contains(next) { continue }
                    out += mnemonic
                    index += length
                    continue scan
                }
                if let mnemonic = table[symbol] {
                    out += mnemonic
                    index += length
                    continue scan
                }
            }
            return .failure(Unconvertible(symbol: String(scalars[index])))
        }
        return out.isEmpty ? .failure(Unconvertible(symbol: "(empty)")) : .success(out)
    }

    /// Left out of the transcription: tie bars, syllable breaks, delimiters, linking marks.
    private static let ignored: Set<Unicode.Scalar> = ["\u{361}", "\u{35C}", ".", "/", "[", "]", "‿", "|", "‖"]

    private static let marks: Set<Unicode.Scalar> = ["ˈ", "ˌ", "ː", "ˑ"]

    private static let vowels: Set<Unicode.Scalar> = [
        "a", "e", "i", "o", "u", "y", "æ", "ɑ", "ɒ", "ɔ", "ə", "ɛ", "ɜ", "ɪ", "ʊ", "ʌ", "ɐ", "ø", "œ", "ʏ",
    ]

    /// English r-coloured vowels (`ɔːɹ` in "north") and syllabic l (`əl` in "bottle") are one
    /// phoneme unless a vowel follows.
    private static let merged: Set<String> = ["ɑːɹ", "ɔːɹ", "oːɹ", "ɛɹ", "ɪɹ", "ʊɹ", "ɑɹ", "ɔɹ", "oɹ", "eɹ", "ɛəɹ", "əl"]

    /// English (eSpeak's `en` table) where it differs from the base names.
    private static let englishTable: [String: String] = [
        "æ": "a", "a": "a", "ɑ": "A:", "ɑː": "A:", "ɒ": "0", "ɔ": "O:", "ɔː": "O:", "ʌ": "V", "ɐ": "a#",
        "ɜ": "3:", "ɜː": "3:", "ɝ": "3:", "ɝː": "3:", "ɚ": "3", "ə": "@", "i": "i", "iː": "i:", "uː": "u:",
        "u": "u:", "e": "E", "eɪ": "eI", "aɪ": "aI", "ɔɪ": "OI", "aʊ": "aU", "oʊ": "oU", "əʊ": "oU", "o": "oU",
        "oː": "O:", "ɪə": "i@", "ɪɹ": "i@", "eə": "e@", "ɛə": "e@", "ɛɹ": "e@", "ɛəɹ": "e@", "eɹ": "e@",
        "ʊə": "U@", "ʊɹ": "U@", "ɑːɹ": "A@", "ɑɹ": "A@", "ɔːɹ": "O@", "ɔɹ": "O@", "oːɹ": "o@", "oɹ": "o@",
        "ɹ": "r", "r": "r", "ɾ": "t#", "ɫ": "l", "l̩": "@L", "əl": "@L", "ʔ": "?", "ʍ": "w",
    ]

    /// eSpeak's base mnemonics (Kirshenbaum-like), shared by most of its languages.
    private static let table: [String: String] = [
        // Consonants
        "p": "p", "b": "b", "t": "t", "d": "d", "k": "k", "ɡ": "g", "g": "g", "f": "f", "v": "v",
        "θ": "T", "ð": "D", "s": "s", "z": "z", "ʃ": "S", "ʒ": "Z", "h": "h", "m": "m", "n": "n",
        "ŋ": "N", "l": "l", "ɫ": "l", "r": "r", "ɹ": "r", "ɾ": "r", "ʁ": "r", "ʀ": "r", "w": "w",
        "j": "j", "x": "x", "χ": "x", "ç": "C", "ɣ": "Q", "β": "B", "ɲ": "n^", "ʎ": "l^", "ʔ": "?",
        "tʃ": "tS", "ʧ": "tS", "dʒ": "dZ", "ʤ": "dZ", "ts": "ts", "dz": "dz", "pf": "pF",
        // Vowels
        "i": "i", "ɪ": "I", "e": "e", "ɛ": "E", "æ": "a", "a": "a", "ɑ": "A", "ɒ": "0", "ɔ": "O",
        "o": "o", "u": "u", "ʊ": "U", "ʌ": "V", "ə": "@", "ɜ": "3", "ɐ": "a#", "y": "y", "ʏ": "Y",
        "ø": "Y", "œ": "W", "ɨ": "i", "ʉ": "u",
        "eɪ": "eI", "aɪ": "aI", "ɔɪ": "OI", "aʊ": "aU", "oʊ": "oU",
        // Marks
        "ˈ": "'", "ˌ": ",", "ː": ":", "ˑ": "", "\u{303}": "~", "\u{329}": "-",
    ]
}
