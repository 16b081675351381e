import NarrateDomain

/// An independent check of where cues were cut: every cue holds whole whitespace-separated tokens of the text,
/// in order, all of them, and none but the last ends with an opening quotation mark or bracket.
enum SubtitleCutCheck {
    static func problems(text: String, cues: [SubtitleCue]) -> [String] {
        let tokens = text.split(whereSeparator: \.isWhitespace)
        var problems: [String] = []
        var cursor = 0
        for (number, cue) in cues.enumerated() {
            let own = cue.text.split(whereSeparator: \.isWhitespace)
            guard cursor + own.count <= tokens.count, tokens[cursor..<(cursor + own.count)].elementsEqual(own) else {
                let context = tokens[max(cursor - 2, 0)..<min(cursor + own.count + 2, tokens.count)].joined(separator: " ")
                problems.append("cue \(number + 1) “\(cue.text)” is not whole words of “\(context)”")
                return problems
            }
            cursor += own.count
            if number + 1 < cues.count, let last = own.last, endsWithOpener(last) {
                problems.append("cue \(number + 1) ends with an opening mark: “\(cue.text)”")
            }
        }
        if cursor != tokens.count { problems.append("the cues hold \(cursor) of \(tokens.count) words") }
        return problems
    }

    static func endsWithOpener(_ token: Substring) -> Bool {
        guard let last = token.last else { return false }
        if "([{“‘„‚¿¡".contains(last) { return true }
        return "«‹\"'".contains(last) && !token.contains { $0.isLetter || $0.isNumber }
    }
}
