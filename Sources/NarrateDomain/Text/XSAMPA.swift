/// X-SAMPA, the ASCII transcription of the IPA, read into IPA.
enum XSAMPA {
    /// The IPA of `text`, or the first X-SAMPA symbol it does not know.
    static func ipa(_ text: String) -> Result<String, PhonemeConverter.Unconvertible> {
        let scalars = Array(text.unicodeScalars)
        var out = ""
        var index = 0
        scan: while index < scalars.count {
            for length in stride(from: min(3, scalars.count - index), through: 1, by: -1) {
                var symbol = ""
                symbol.unicodeScalars.append(contentsOf: scalars[index..<index + length])
                if let ipa = table[symbol] {
                    out += ipa
                    index += length
                    continue scan
                }
            }
            return .failure(.init(symbol: String(scalars[index])))
        }
        return .success(out)
    }

    /// The symbols English and the common European languages use. Longer symbols (`r\`, `3``)
    /// are tried before their first character.
    static let table: [String: String] = [
        // Consonants
        "p": "p", "b": "b", "t": "t", "d": "d", "k": "k", "g": "ɡ", "f": "f", "v": "v",
        "T": "θ", "D": "ð", "s": "s", "z": "z", "S": "ʃ", "Z": "ʒ", "h": "h", "m": "m", "n": "n",
        "N": "ŋ", "l": "l", "5": "ɫ", "r": "r", "r\\": "ɹ", "4": "ɾ", "R": "ʁ", "w": "w", "j": "j",
        "x": "x", "C": "ç", "X": "χ", "G": "ɣ", "B": "β", "J": "ɲ", "L": "ʎ", "?": "ʔ", "W": "ʍ",
        "tS": "tʃ", "dZ": "dʒ", "ts": "ts", "dz": "dz", "pf": "pf",
        // Vowels
        "i": "i", "I": "ɪ", "e": "e", "E": "ɛ", "{": "æ", "a": "a", "A": "ɑ", "Q": "ɒ", "O": "ɔ",
        "o": "o", "u": "u", "U": "ʊ", "V": "ʌ", "@": "ə", "3": "ɜ", "3`": "ɝ", "@`": "ɚ", "6": "ɐ",
        "y": "y", "Y": "ʏ", "2": "ø", "9": "œ", "1": "ɨ", "}": "ʉ", "M": "ɯ", "7": "ɤ", "8": "ɵ",
        // Marks
        "\"": "ˈ", "%": "ˌ", ":": "ː", "~": "\u{303}", "=": "\u{329}", ".": ".", " ": " ",
        "_~": "\u{303}", "_=": "\u{329}", "-": "",
    ]
}
