/// Joins printed lines into running text: a word broken by a hyphen at a line's end is mended (a hyphen the
/// document also prints inside a line, as in "well-known", is kept), soft hyphens are dropped and typographic
/// ligatures are spelled out.
public enum LineJoiner {
    static let ligatures: [Character: String] = [
        "\u{FB00}": "ff", "\u{FB01}": "fi", "\u{FB02}": "fl", "\u{FB03}": "ffi", "\u{FB04}": "ffl",
        "\u{FB05}": "st", "\u{FB06}": "st",
    ]
    static let softHyphen: Character = "\u{00AD}"
    static let hyphens: Set<Character> = ["-", "\u{2010}"]

    /// `text` with ligatures spelled out and soft hyphens dropped, except one at its end (a break `join` mends).
    public static func cleaned(_ text: String) -> String {
        var result = ""
        for (offset, character) in text.enumerated() {
            if character == softHyphen, offset < text.count - 1 { continue }
            if let spelled = ligatures[character] { result += spelled } else { result.append(character) }
        }
        return result
    }

    /// `first` followed by the line `next`: a space between them, or none where a word was broken across. A hyphen at
    /// the break is kept before a capital, in a compound the document prints whole ("well-known"), and between two
    /// words the document uses alone when it never prints them joined ("assembly-room"); else the word is mended.
    public static func join(_ first: String, _ next: String, vocabulary: LayoutVocabulary) -> String {
        guard let last = first.last, let nextFirst = next.first else { return first + next }
        if last == softHyphen { return String(first.dropLast()) + next }
        if last == "\u{2014}" || last == "\u{2013}" { return first + next }
        guard hyphens.contains(last), first.dropLast().last?.isLetter == true, nextFirst.isLetter else {
            return first + " " + next
        }
        let head = LayoutVocabulary.trimmed(first.dropLast().split(separator: " ").last ?? "").lowercased()
        let tail = LayoutVocabulary.trimmed(next.split(separator: " ").first ?? "").lowercased()
        // A compound going on past the break ("three-|and-twenty") keeps its hyphen too.
        if nextFirst.isUppercase || vocabulary.hyphenated.contains(head + "-" + tail) || tail.contains(where: hyphens.contains) {
            return first + next
        }
        let mended = head + tail
        if !vocabulary.words.contains(mended), vocabulary.words.contains(head), vocabulary.words.contains(tail) {
            return first + next
        }
        return String(first.dropLast()) + next
    }
}
