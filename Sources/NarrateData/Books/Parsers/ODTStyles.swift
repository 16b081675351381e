import NarrateDomain

/// What an ODT's styles say of its text: which paragraph styles are headings (an outline level,
/// directly or through the styles they inherit from), which styles hide their text
/// (`text:display="none"`), which is the title style, and the document's default language.
///
/// The common styles come from `styles.xml`; the automatic styles of `content.xml` (which its
/// paragraphs name, and which inherit from the common ones) are added as the content is read.
struct ODTStyles {
    struct Style {
        var name: String
        var family: String
        var parent: String?
        var displayName: String?
        /// `style:default-outline-level`: 1 for a level-1 heading.
        var outlineLevel: Int?
        /// `text:display` of its text properties: true for "none", false for "true".
        var hidden: Bool?
    }

    static let styleNamespace = "urn:oasis:names:tc:opendocument:xmlns:style:1.0"
    static let textNamespace = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
    static let foNamespace = "urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"

    private var styles: [String: Style] = [:]
    /// The default paragraph style's language (`fo:language`, `fo:country`).
    private(set) var language: String?

    init() {}

    /// Reads the common and automatic styles of `styles.xml`.
    init(_ tree: XMLTree?) {
        guard let tree else { return }
        for container in tree.children where container.name == "styles" || container.name == "automatic-styles" {
            for element in container.children("style") {
                var style = Self.style(name: Self.value(element, "name"), family: Self.value(element, "family"))
                style?.parent = Self.value(element, "parent-style-name")
                style?.displayName = Self.value(element, "display-name")
                style?.outlineLevel = Self.value(element, "default-outline-level").flatMap { Int($0) }
                style?.hidden = element.child("text-properties").flatMap { Self.value($0, "display") }.map(Self.hides)
                if let style { add(style) }
            }
            let defaults = container.children("default-style").first { Self.value($0, "family") == "paragraph" }?.child("text-properties")
            if let language = defaults.flatMap({ Self.value($0, "language") }), language.lowercased() != "zxx", language.lowercased() != "none" {
                let country = defaults.flatMap { Self.value($0, "country") }.flatMap { $0.lowercased() == "none" ? nil : $0 }
                self.language = country.map { "\(language)-\($0)" } ?? language
            }
        }
    }

    /// A style named `name` of `family`, when both are there.
    static func style(name: String?, family: String?) -> Style? {
        guard let name, let family else { return nil }
        return Style(name: name, family: family)
    }

    /// Adds (or replaces) a style: an automatic style of the content.
    mutating func add(_ style: Style) {
        styles[style.family + "/" + style.name] = style
    }

    /// The outline level of a paragraph in style `name` (nil for body text).
    func headingLevel(paragraphStyle name: String?) -> Int? {
        chain(name, family: "paragraph").lazy.compactMap(\.outlineLevel).first { $0 > 0 }
    }

    /// Whether `name` of `family` (paragraph, text, section) hides its text.
    func hides(_ name: String?, family: String) -> Bool {
        chain(name, family: family).lazy.compactMap(\.hidden).first ?? false
    }

    /// Whether paragraph style `name` is the title style, or an automatic style made from it.
    func isTitle(paragraphStyle name: String?) -> Bool {
        chain(name, family: "paragraph").prefix(2).contains { ($0.displayName ?? $0.name).lowercased() == "title" }
    }

    /// The style and those it inherits from, nearest first; each once.
    private func chain(_ name: String?, family: String) -> [Style] {
        var result: [Style] = []
        var seen: Set<String> = []
        var next = name
        while let current = next, result.count < DOCXStyles.maxChain, seen.insert(current).inserted, let style = styles[family + "/" + current] {
            result.append(style)
            next = style.parent
        }
        return result
    }

    /// Whether a `text:display` value hides the text ("none"; "condition" cannot be judged here).
    static func hides(_ display: String) -> Bool {
        display == "none"
    }

    /// An attribute by its local name, whatever the prefix.
    static func value(_ element: XMLTree, _ local: String) -> String? {
        DOCXStyles.value(element, local)
    }
}
