/// Turns what a user types into an FTS5 `MATCH` pattern that cannot be a syntax error.
enum FullTextQuery {
    /// Every word as a quoted FTS5 string (`"` doubled inside), all required:
    /// `moby "dick` → `"moby" """dick"`. Quoting makes `AND`, `NEAR(`, `*`, `:` and `^` plain
    /// text. Whitespace and control characters separate words (FTS5 reads a NUL as the end of
    /// the pattern, which would leave a quote open). Words without a letter or digit are
    /// dropped, as the tokenizer would drop them; `nil` when nothing is left to search for.
    static func pattern(for userQuery: String) -> String? {
        let words = userQuery
            .split(whereSeparator: isSeparator)
            .filter { word in word.contains { $0.isLetter || $0.isNumber } }
            .map { word in "\"" + word.replacing("\"", with: "\"\"") + "\"" }
        return words.isEmpty ? nil : words.joined(separator: " ")
    }

    private static func isSeparator(_ character: Character) -> Bool {
        character.isWhitespace
            || character.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}
