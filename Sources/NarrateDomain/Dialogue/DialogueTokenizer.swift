/// Cuts a text into words and marks, each told its paragraph, its quotation (if any) and whether
/// it opens a sentence.
enum DialogueTokenizer {
    /// The tokens of `scalars`, in order.
    static func tokens(
        _ scalars: [Unicode.Scalar], paragraphs: [Range<Int>], quotations: [Quotation]
    ) -> [DialogueToken] {
        var tokens: [DialogueToken] = []
        tokens.reserveCapacity(scalars.count / 4)
        var quoteIndex = 0
        for (number, paragraph) in paragraphs.enumerated() {
            var index = paragraph.lowerBound
            var opens = true
            var previousQuote: Int?
            while index < paragraph.upperBound {
                let scalar = scalars[index]
                if scalar.properties.isWhitespace {
                    index += 1
                    continue
                }
                while quoteIndex < quotations.count, quotations[quoteIndex].end < index { quoteIndex += 1 }
                var quote: Int?
                if quoteIndex < quotations.count, quotations[quoteIndex].start <= index, index < quotations[quoteIndex].end {
                    quote = quoteIndex
                }
                if quote != previousQuote { opens = true }
                previousQuote = quote
                var end = index + 1
                let word = isWordScalar(scalar)
                if word {
                    while end < paragraph.upperBound {
                        if isWordScalar(scalars[end]) {
                            end += 1
                        } else if "'\u{2019}-".unicodeScalars.contains(scalars[end]), end + 1 < paragraph.upperBound,
                            scalars[end + 1].properties.isAlphabetic {
                            end += 2
                        } else {
                            break
                        }
                    }
                }
                if word, end - index > 2, scalars[end - 1] == "s" || scalars[end - 1] == "S",
                    scalars[end - 2] == "'" || scalars[end - 2] == "\u{2019}" {
                    // "Emma's": the name, then the possessive.
                    var name = String.UnicodeScalarView()
                    name.append(contentsOf: scalars[index..<(end - 2)])
                    tokens.append(DialogueToken(
                        text: String(name), start: index, end: end - 2, isWord: true, opensSentence: opens,
                        quotation: quote, paragraph: number))
                    tokens.append(DialogueToken(
                        text: "'s", start: end - 2, end: end, isWord: true, opensSentence: false,
                        quotation: quote, paragraph: number))
                    opens = false
                    index = end
                    continue
                }
                var text = String.UnicodeScalarView()
                text.append(contentsOf: scalars[index..<end])
                let token = DialogueToken(
                    text: String(text), start: index, end: end, isWord: word, opensSentence: word && opens,
                    quotation: quote, paragraph: number)
                if word {
                    opens = false
                } else if "!?".unicodeScalars.contains(scalar) {
                    opens = true
                } else if scalar == ".", let last = tokens.last, last.isWord, last.start >= paragraph.lowerBound,
                    !CharacterTitles.isAbbreviation(last.text) {
                    opens = true
                }
                tokens.append(token)
                index = end
            }
        }
        return tokens
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }
}
