import NarrateDomain

/// One field of a DOCX (`w:fldChar` begin … separate … end, or `w:fldSimple`) while it is read:
/// its instruction (`TOC \o "1-3"`, `PAGE`, `HYPERLINK …`) is never read; its result, the text
/// Word shows, is read unless the field makes matter that is not the book.
struct DOCXField {
    enum Kind: Equatable {
        /// The result is read.
        case plain
        /// A contents list (`TOC`, `TOA`) or an index (`INDEX`): left out as that matter.
        case matter(SkippedMatter.Kind)
        /// A note's number shown again (`NOTEREF`): not read, as note markers are not.
        case noteNumber
    }

    var instruction = ""
    /// Whether `separate` came: the text from here on is the result.
    private(set) var inResult = false
    /// What the field is, known once its instruction is (at `separate`).
    private(set) var kind = Kind.plain
    /// The result's text, for a field that makes matter.
    var matterText = ""

    init(instruction: String = "", inResult: Bool = false) {
        self.instruction = instruction
        if inResult { separate() }
    }

    /// The instruction ends, the result begins.
    mutating func separate() {
        inResult = true
        kind = Self.kind(of: instruction)
    }

    /// Whether the result is matter that is not the book.
    var makesMatter: Bool {
        if case .matter = kind { return true }
        return false
    }

    /// Nested fields kept track of; deeper ones (only a crafted file has them) are read as text.
    static let maxNesting = 64

    /// What a field is, by the first word of its instruction.
    static func kind(of instruction: String) -> Kind {
        let word = instruction.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).first.map { $0.uppercased() } ?? ""
        switch word {
        case "TOC", "TOA": return .matter(.contents)
        case "INDEX": return .matter(.index)
        case "NOTEREF": return .noteNumber
        default: return .plain
        }
    }

    /// The matter this field's result was, once it ends, when it had words.
    var skippedMatter: SkippedMatter? {
        guard case let .matter(kind) = kind else { return nil }
        let words = Paginator.wordCount(matterText)
        guard words > 0 else { return nil }
        return SkippedMatter(kind: kind, title: kind == .index ? "Index" : "Contents", words: words)
    }
}
