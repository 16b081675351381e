import NarrateDomain

/// What a DOCX's styles (`word/styles.xml`) say of its text: which paragraph styles are headings
/// (an outline level, or a built-in name such as "heading 1", directly or through the styles
/// they are based on), which styles hide their text (`w:vanish`), and the document's default
/// language.
struct DOCXStyles {
    struct Style {
        var name: String?
        var basedOn: String?
        /// `w:outlineLvl`: 0 for a level-1 heading … 8; 9 is body text.
        var outlineLevel: Int?
        var vanish: Bool?
    }

    private var paragraphStyles: [String: Style] = [:]
    private var characterStyles: [String: Style] = [:]
    /// The style of a paragraph that names none.
    private var defaultParagraphStyle: String?
    /// `w:docDefaults`' language (`en-US`).
    private(set) var language: String?

    /// How many `basedOn` steps are followed: real styles chain a few; a loop ends here.
    static let maxChain = 32

    init(_ tree: XMLTree?) {
        guard let tree else { return }
        for element in tree.children("style") {
            guard let id = Self.value(element, "styleId") else { continue }
            var style = Style(name: element.child("name").flatMap { Self.value($0, "val") }, basedOn: element.child("basedOn").flatMap { Self.value($0, "val") })
            style.outlineLevel = element.child("pPr")?.child("outlineLvl").flatMap { Self.value($0, "val") }.flatMap { Int($0) }
            style.vanish = element.child("rPr")?.child("vanish").map(Self.isOn)
            switch Self.value(element, "type") {
            case "paragraph":
                paragraphStyles[id] = style
                if element.attributes.contains(where: { XMLTree.localName($0.key) == "default" && ["1", "true", "on"].contains($0.value) }) {
                    defaultParagraphStyle = id
                }
            case "character":
                characterStyles[id] = style
            default:
                break
            }
        }
        let defaults = tree.child("docDefaults")?.child("rPrDefault")?.child("rPr")?.child("lang")
        language = defaults.flatMap { Self.value($0, "val") }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The heading level (1 for "heading 1") of a paragraph in style `id` (nil: the default
    /// style), or nil when it is body text.
    func headingLevel(paragraphStyle id: String?) -> Int? {
        let chain = self.chain(id ?? defaultParagraphStyle, in: paragraphStyles)
        if let level = chain.lazy.compactMap(\.outlineLevel).first {
            return level >= 0 && level < 9 ? level + 1 : nil
        }
        for style in chain {
            guard let name = style.name?.lowercased(), name.hasPrefix("heading ") else { continue }
            if let level = Int(name.dropFirst(8)), (1...9).contains(level) { return level }
        }
        return nil
    }

    /// Whether paragraph style `id` is the document's title style ("Title").
    func isTitle(paragraphStyle id: String?) -> Bool {
        guard let id else { return false }
        return (paragraphStyles[id]?.name ?? id).lowercased() == "title"
    }

    /// Whether text in paragraph style `id` is hidden unless a run says otherwise.
    func hides(paragraphStyle id: String?) -> Bool {
        chain(id ?? defaultParagraphStyle, in: paragraphStyles).lazy.compactMap(\.vanish).first ?? false
    }

    /// Whether character style `id` hides its text, shows it, or says nothing (nil).
    func hides(characterStyle id: String) -> Bool? {
        chain(id, in: characterStyles).lazy.compactMap(\.vanish).first
    }

    /// The style `id` and those it is based on, nearest first; each once.
    private func chain(_ id: String?, in styles: [String: Style]) -> [Style] {
        var result: [Style] = []
        var seen: Set<String> = []
        var next = id
        while let current = next, result.count < Self.maxChain, seen.insert(current).inserted, let style = styles[current] {
            result.append(style)
            next = style.basedOn
        }
        return result
    }

    /// An attribute by its local name (`w:val` → `val`), whatever the prefix.
    static func value(_ element: XMLTree, _ local: String) -> String? {
        element.attributes.first { XMLTree.localName($0.key) == local }?.value
    }

    /// A `w:vanish`-like toggle: on unless its `w:val` says off.
    static func isOn(_ element: XMLTree) -> Bool {
        value(element, "val").map(isOn) ?? true
    }

    static func isOn(_ value: String) -> Bool {
        !["0", "false", "off", "none"].contains(value.lowercased())
    }
}
