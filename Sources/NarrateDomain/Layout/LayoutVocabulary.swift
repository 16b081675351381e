/// The words a printed document uses, which decide a hyphen at a line's end without a dictionary: the words
/// printed whole, and the compounds printed with a hyphen inside a line ("well-known").
public struct LayoutVocabulary: Sendable, Hashable {
    /// Words printed inside lines, lowercased, without surrounding punctuation.
    public var words: Set<String>
    /// Of those, the ones with a hyphen between letters.
    public var hyphenated: Set<String>

    public init(words: Set<String> = [], hyphenated: Set<String> = []) {
        self.words = words
        self.hyphenated = hyphenated
    }

    /// The vocabulary of `lines`: every word but a line's last, which a break may have cut.
    public init(lines: [String]) {
        var words: Set<String> = []
        var hyphenated: Set<String> = []
        for line in lines {
            for token in line.split(separator: " ").dropLast() {
                let word = Self.trimmed(token).lowercased()
                guard word.first?.isLetter == true else { continue }
                words.insert(word)
                if word.contains(where: LineJoiner.hyphens.contains), word.last?.isLetter == true { hyphenated.insert(word) }
            }
        }
        self.init(words: words, hyphenated: hyphenated)
    }

    /// `token` without the punctuation around it.
    static func trimmed(_ token: Substring) -> String {
        String(token.drop { !$0.isLetter && !$0.isNumber }.reversed().drop { !$0.isLetter && !$0.isNumber }.reversed())
    }
}
