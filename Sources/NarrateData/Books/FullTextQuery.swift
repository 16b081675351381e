/// Turns what a user types into an FTS5 `MATCH` pattern that cannot be a syntax error.
enum FullTextQuery {
    /// Every whitespace-separated word as a quoted FTS5 string (`"` doubled inside), all
    /// required: `moby "dick` → `"moby" """dick"`. Quoting makes `AND`, `NEAR(`, `*`, `:` and
    /// `^` plain text. Words without a letter or digit are dropped, since the tokenizer would
    /// drop them anyway; `nil` when nothing is left to search for.
    static func pattern(for userQuery: String) -> String? {
        let words = userQuery
            .split(whereSeparator: \.isWhitespace)
            .filter { word in word.contains { $0.isLetter || $0.isNumber } }
            .map { word in "\"" + word.replacing("\"", with: "\"\"") + "\"" }
        return words.isEmpty ? nil : words.joined(separator: " ")
    }
}
