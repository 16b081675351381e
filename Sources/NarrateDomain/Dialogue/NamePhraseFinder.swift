/// Finds the names written in a text: a title and the capitalized words after it ("Mr. Frank
/// Churchill", "the King"), or capitalized words the text never writes in lower case ("Emma",
/// "Christopher Robin") when they stand where a sentence does not begin.
enum NamePhraseFinder {
    /// Words that are capitalized mid-sentence yet name no one.
    private static let notNames: Set<String> = [
        "i", "o", "oh", "ah", "god", "heaven", "heavens", "lord", "sunday", "monday", "tuesday", "wednesday",
        "thursday", "friday", "saturday", "january", "february", "march", "april", "may", "june", "july",
        "august", "september", "october", "november", "december", "christmas", "easter", "english", "french",
        "chapter", "volume", "book", "the", "a", "an", "and", "but", "yes", "no", "well", "dear", "my", "sir",
        "madam", "ma'am", "mamma", "papa", "mama", "whom", "what", "who", "if", "then", "there", "here", "this",
        "that", "it", "he", "she", "we", "they", "you", "his", "her", "do", "let", "now", "pray", "street",
    ]

    /// Every name phrase of `tokens`, in order.
    static func phrases(in tokens: [DialogueToken]) -> [NamePhrase] {
        let nameLike = nameWords(tokens)
        var phrases: [NamePhrase] = []
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            guard token.isCapitalized else {
                index += 1
                continue
            }
            var next = index
            var title: String?
            if CharacterTitles.isTitle(token.text), !token.opensSentence || isTitleWord(token.text) {
                title = token.text
                next = index + 1
                if next < tokens.count, tokens[next].text == "." { next += 1 }
            }
            var words: [String] = []
            var last = next - 1
            while next < tokens.count, words.count < 3, tokens[next].isCapitalized,
                tokens[next].quotation == token.quotation, nameLike.contains(tokens[next].text),
                !CharacterTitles.isTitle(tokens[next].text) {
                words.append(tokens[next].text)
                last = next
                next += 1
            }
            if let title, words.isEmpty {
                // "the King": a title alone names someone when "the" stands before it.
                if index > 0, tokens[index - 1].lowered == "the", !["sir", "lord", "madam"].contains(title.lowercased()) {
                    phrases.append(NamePhrase(title: nil, words: [title], first: index, last: index))
                }
                index += 1
                continue
            }
            if !words.isEmpty {
                phrases.append(NamePhrase(title: title, words: words, first: index, last: last))
                index = last + 1
            } else {
                index += 1
            }
        }
        return phrases
    }

    /// Whether a capitalized title at a sentence's start is still a title (Mr., Mrs., Dr.).
    private static func isTitleWord(_ word: String) -> Bool {
        CharacterTitles.isAbbreviation(word) || ["miss", "lady", "sir", "captain", "colonel"].contains(word.lowercased())
    }

    /// Words written with a capital where no sentence begins, and hardly ever in lower case.
    private static func nameWords(_ tokens: [DialogueToken]) -> Set<String> {
        var capitalizedInside: [String: Int] = [:]
        var lowerCase: [String: Int] = [:]
        for token in tokens where token.isWord {
            if token.isCapitalized {
                if !token.opensSentence { capitalizedInside[token.text, default: 0] += 1 }
            } else {
                lowerCase[token.text, default: 0] += 1
            }
        }
        var result: Set<String> = []
        for (word, count) in capitalizedInside {
            let lowered = word.lowercased()
            guard !notNames.contains(lowered), word.count > 1 else { continue }
            if word == word.uppercased() { continue }  // headings and shouting
            // "the Mouse" of a fable is now and then "a mouse": a name all the same when mostly capitalized.
            let lower = lowerCase[lowered, default: 0]
            if lower * 4 <= count || (count >= 4 && lower <= count * 2) { result.insert(word) }
        }
        return result
    }
}
