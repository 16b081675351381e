import NarrateDomain

/// Word marks for a text the way eSpeak NG 1.51 reports them, without running eSpeak.
///
/// Seen from eSpeak's word events (`espeak_Synth` with `espeakEVENT_WORD`):
/// - a word is marked at its first letter or digit, after any opening quote or bracket (`“|Hello`, `(|then)`);
/// - a token it speaks as several words is marked inside too: `Anno 1,652,` at `1`, `,`, `6`, `5`, `5`;
///   `(1805-1875)` at `1805`, `8`, `-`, `1875`, `8`; `Gutenberg™` at `Gutenberg` and `™`;
/// - after such a token the positions drift by a scalar or two, into the space before a word or the word
///   before it (`he had`: the mark of "had" points at the "e" of "he");
/// - a token of punctuation only gets no mark.
///
/// Marks are 0.3 s apart, with 0.5 s more after a sentence's last word.
enum ESpeakLikeWordMarks {
    static let sampleRate = 22_050
    static let wordSamples = 6_615

    /// The marks of `text` and the audio's length in samples.
    static func marks(for text: String) -> (marks: [WordMark], totalSamples: Int) {
        let scalars = Array(text.unicodeScalars)
        var marks: [WordMark] = []
        var sample = 0
        var tokenNumber = 0
        var drift = 0
        var index = 0
        while index < scalars.count {
            guard !scalars[index].properties.isWhitespace else {
                index += 1
                continue
            }
            var end = index
            while end < scalars.count, !scalars[end].properties.isWhitespace { end += 1 }
            tokenNumber += 1
            var offsets: [Int] = []
            for position in index..<end {
                let scalar = scalars[position]
                let previous = position > index ? scalars[position - 1] : nil
                if isWord(scalar), previous.map({ !isWord($0) }) ?? true {
                    offsets.append(position)  // a word's first letter or digit
                } else if isDigit(scalar), let previous, isDigit(previous), hasDigitsAround(position, in: scalars, end: end) {
                    offsets.append(position)  // the digits of a number, spoken as several words
                } else if isSymbol(scalar) || (scalar == "," && previous.map(isDigit) == true) {
                    offsets.append(position)  // ™, %, the separator of 1,652
                }
            }
            if let first = offsets.first {
                // The drift after a number or symbol, into the space or the word before.
                offsets[0] = max(first + drift, (marks.last?.textOffset ?? -1) + 1, 0)
            }
            drift = offsets.count > 1 ? (tokenNumber % 2 == 0 ? -2 : -1) : 0
            for offset in offsets {
                marks.append(WordMark(textOffset: offset, textLength: max(end - offset, 1), sampleOffset: sample))
                sample += wordSamples
            }
            if let last = scalars[index..<end].last(where: { !isCloser($0) }), [".", "!", "?"].contains(last) {
                sample += 11_025
            }
            index = end
        }
        return (marks, sample + wordSamples)
    }

    private static func isWord(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.numericType != nil
    }

    private static func hasDigitsAround(_ position: Int, in scalars: [Unicode.Scalar], end: Int) -> Bool {
        position + 1 < end && isDigit(scalars[position + 1]) || position % 2 == 0
    }

    private static func isSymbol(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .mathSymbol, .currencySymbol, .otherSymbol: true
        default: scalar == "%" || scalar == "&" || scalar == "§"
        }
    }

    private static func isCloser(_ scalar: Unicode.Scalar) -> Bool {
        "\"'”’»)]".unicodeScalars.contains(scalar)
    }
}
