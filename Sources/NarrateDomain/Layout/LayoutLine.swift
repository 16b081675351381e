/// One printed line: its words left to right.
public struct LayoutLine: Sendable, Hashable {
    public var words: [LayoutWord]

    public init(words: [LayoutWord]) {
        self.words = words
    }

    /// The box around all its words.
    public var box: LayoutBox {
        guard let first = words.first else { return LayoutBox(x: 0, y: 0, width: 0, height: 0) }
        return words.dropFirst().reduce(first.box) { $0.union($1.box) }
    }

    /// The size most of its characters are set in.
    public var fontSize: Double {
        var weights: [Double: Int] = [:]
        for word in words { weights[word.fontSize, default: 0] += word.text.count }
        return weights.max { ($0.value, -$0.key) < ($1.value, -$1.key) }?.key ?? 0
    }

    /// Whether every word is bold.
    public var isBold: Bool { !words.isEmpty && words.allSatisfy(\.isBold) }

    /// The words with a space between them, except where a word touches the one before it.
    public var text: String {
        var result = ""
        for (index, word) in words.enumerated() {
            if index > 0, !Self.touches(words[index - 1], word) { result += " " }
            result += word.text
        }
        return result
    }

    /// Whether `word` starts where `previous` ends, with no word space between.
    public static func touches(_ previous: LayoutWord, _ word: LayoutWord) -> Bool {
        word.box.x - previous.box.maxX < 0.1 * max(previous.fontSize, 1)
    }
}
