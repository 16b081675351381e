extension LayoutLine {
    /// A line of `text` whose words are laid out from `x` at `y`, each character `0.5 × fontSize` wide and a space
    /// between words: how tests and simple producers describe a line without measuring glyphs.
    public init(text: String, x: Double, y: Double, fontSize: Double, isBold: Bool = false) {
        let advance = fontSize * 0.5
        var cursor = x
        var words: [LayoutWord] = []
        for token in text.split(separator: " ") {
            let width = Double(token.count) * advance
            words.append(LayoutWord(
                text: String(token), box: LayoutBox(x: cursor, y: y, width: width, height: fontSize),
                fontSize: fontSize, isBold: isBold
            ))
            cursor += width + advance
        }
        self.init(words: words)
    }
}
