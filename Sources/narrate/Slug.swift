/// A file-name-safe form of a title or label.
enum Slug {
    static func make(_ text: String) -> String {
        let allowed = text.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }
        let collapsed = String(allowed).split(separator: "-").joined(separator: "-")
        return collapsed.isEmpty ? "book" : String(collapsed.prefix(60))
    }
}
