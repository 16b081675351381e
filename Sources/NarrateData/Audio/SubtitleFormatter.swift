import NarrateDomain

/// Renders subtitle cues as WebVTT or SubRip (SRT) text.
///
/// Cue text is wrapped at ``lineLength`` characters, onto two balanced lines when it fits in two.
public enum SubtitleFormatter {
    /// The longest line wanted in a cue, in characters.
    public static let lineLength = 42

    /// A WebVTT file: the `WEBVTT` header, then each cue as `HH:MM:SS.mmm --> HH:MM:SS.mmm` and its text.
    ///
    /// With `wordTimings`, each word after the first is preceded by a timestamp tag (`<00:00:01.234>word`), as
    /// players use for karaoke-style highlighting. A tag is written only when it falls strictly inside the cue and
    /// after the previous tag, as WebVTT requires, and only for words found in the cue text. `&`, `<` and `>` are
    /// escaped.
    public static func webVTT(_ cues: [SubtitleCue], wordTimings: Bool = true) -> String {
        var output = "WEBVTT\n"
        for cue in cues {
            let start = milliseconds(cue.start)
            let end = max(milliseconds(cue.end), start)
            output += "\n\(timestamp(start, separator: ".")) --> \(timestamp(end, separator: "."))\n"
            let characters = Array(cue.text)
            let breaks = lineBreaks(in: characters)
            let tags = wordTimings ? timestampTags(for: cue, in: characters, start: start, end: end) : [:]
            for (index, character) in characters.enumerated() {
                if let tag = tags[index] { output += "<\(timestamp(tag, separator: "."))>" }
                if breaks.contains(index) {
                    output += "\n"
                    continue
                }
                switch character {
                case "&": output += "&amp;"
                case "<": output += "&lt;"
                case ">": output += "&gt;"
                default: output.append(character)
                }
            }
            output += "\n"
        }
        return output
    }

    /// A SubRip file: cues numbered from 1, each with `HH:MM:SS,mmm --> HH:MM:SS,mmm` and its text, a blank
    /// line between cues. SRT has no word timings and no escaping.
    public static func srt(_ cues: [SubtitleCue]) -> String {
        var blocks: [String] = []
        blocks.reserveCapacity(cues.count)
        for (index, cue) in cues.enumerated() {
            let start = milliseconds(cue.start)
            let end = max(milliseconds(cue.end), start)
            let characters = Array(cue.text)
            let breaks = lineBreaks(in: characters)
            var text = ""
            for (position, character) in characters.enumerated() {
                if breaks.contains(position) { text += "\n" } else { text.append(character) }
            }
            let times = "\(timestamp(start, separator: ",")) --> \(timestamp(end, separator: ","))"
            blocks.append("\(index + 1)\n\(times)\n\(text)\n")
        }
        return blocks.joined(separator: "\n")
    }

    // MARK: - Timestamps

    /// Whole milliseconds, rounded; negative and non-finite times count as zero.
    static func milliseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return Int((seconds * 1000).rounded())
    }

    /// `HH:MM:SS.mmm` (`,` before the milliseconds for SRT); hours go past 99 if they must.
    static func timestamp(_ milliseconds: Int, separator: Character) -> String {
        let hours = milliseconds / 3_600_000
        let minutes = milliseconds / 60_000 % 60
        let seconds = milliseconds / 1000 % 60
        let millis = milliseconds % 1000
        return "\(padded(hours, 2)):\(padded(minutes, 2)):\(padded(seconds, 2))\(separator)\(padded(millis, 3))"
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(width - digits.count, 0)) + digits
    }

    // MARK: - Layout

    /// Positions of the spaces in `characters` to turn into line breaks.
    ///
    /// Text that fits on one line stays whole; text that fits on two is cut at the space that makes the two lines
    /// most even; longer text is wrapped greedily, every line as full as it can be. A word longer than a line is
    /// never cut, and a line never ends with a quotation mark or bracket that opens the next (``WordBreak``).
    static func lineBreaks(in characters: [Character]) -> Set<Int> {
        let limit = lineLength
        guard characters.count > limit else { return [] }
        let spaces = characters.indices.filter { characters[$0] == " " && allowsLineBreak(at: $0, in: characters) }
        // Two lines: the space that keeps the longer line shortest, ties going to the earlier space
        // (a shorter top line covers less of the picture).
        var best: Int?
        var bestLonger = Int.max
        for space in spaces {
            let longer = max(space, characters.count - space - 1)
            if longer <= limit, longer < bestLonger {
                best = space
                bestLonger = longer
            }
        }
        if let best { return [best] }

        var breaks: Set<Int> = []
        var lineStart = 0
        var lastSpace: Int?
        for space in spaces + [characters.count] {
            if space - lineStart > limit, let previous = lastSpace, previous > lineStart {
                breaks.insert(previous)
                lineStart = previous + 1
            }
            lastSpace = space
        }
        return breaks
    }

    /// Whether the space at `space` may become a line break: ``WordBreak``'s rule for the words either side.
    private static func allowsLineBreak(at space: Int, in characters: [Character]) -> Bool {
        var start = space
        while start > 0, characters[start - 1] != " " { start -= 1 }
        var end = space + 1
        while end < characters.count, characters[end] != " " { end += 1 }
        return WordBreak.allowsBreak(
            after: String(characters[start..<space]).unicodeScalars,
            before: String(characters[(space + 1)..<end]).unicodeScalars
        )
    }

    /// The timestamp tag to write before each character position: the start of each word found in the text, in
    /// order, when it falls strictly after the cue start (or the previous tag) and before the cue end.
    private static func timestampTags(
        for cue: SubtitleCue, in characters: [Character], start: Int, end: Int
    ) -> [Int: Int] {
        var tags: [Int: Int] = [:]
        var cursor = 0
        var previous = start
        for word in cue.words {
            let wordCharacters = Array(word.text)
            guard !wordCharacters.isEmpty, let position = firstIndex(of: wordCharacters, in: characters, from: cursor)
            else { continue }
            cursor = position + wordCharacters.count
            let time = milliseconds(word.start)
            guard time > previous, time < end else { continue }
            tags[position] = time
            previous = time
        }
        return tags
    }

    private static func firstIndex(of needle: [Character], in haystack: [Character], from start: Int) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        var index = start
        while index + needle.count <= haystack.count {
            if haystack[index] == needle[0], haystack[index..<(index + needle.count)].elementsEqual(needle) {
                return index
            }
            index += 1
        }
        return nil
    }
}
