/// File names made from titles and labels: the one home of both forms, so every front end and
/// the export name files alike. Each form is kept as it is: an export finds its earlier files by
/// these names, so changing either would redo finished work.
public enum FileName {
    /// A title as a readable file name: no slashes, colons or control characters, no leading
    /// dots, no trailing full stop, at most 80 characters; `untitled` when nothing is left.
    /// "Chapter 2. The Carpet-Bag." gives "Chapter 2. The Carpet-Bag".
    public static func readable(_ title: String) -> String {
        let cleaned = title.unicodeScalars.map { scalar -> String in
            if scalar == "/" || scalar == "\\" || scalar == ":" { return "-" }
            if scalar.properties.generalCategory == .control || scalar == "\n" { return " " }
            return String(scalar)
        }.joined()
        let folded = cleaned.split(whereSeparator: { $0 == " " }).joined(separator: " ")
        let trimmed = folded.hasPrefix(".") ? String(folded.drop(while: { $0 == "." })) : folded
        // Without the trailing full stop, "….mp3" does not follow "..".
        var result = String(trimmed.prefix(80)).trimmingWhitespace
        while result.hasSuffix(".") { result.removeLast() }
        result = result.trimmingWhitespace
        return result.isEmpty ? "untitled" : result
    }

    /// A slug: lowercase letters and digits joined by single hyphens, at most 60 characters;
    /// `book` when nothing is left. "Moby-Dick; or, The Whale" gives "moby-dick-or-the-whale".
    public static func slug(_ text: String) -> String {
        let allowed = text.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }
        let collapsed = String(allowed).split(separator: "-").joined(separator: "-")
        return collapsed.isEmpty ? "book" : String(collapsed.prefix(60))
    }
}
