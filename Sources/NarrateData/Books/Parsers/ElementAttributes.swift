/// What a reader of book markup needs from one start tag's attributes.
struct ElementAttributes {
    /// The local name, lower-cased.
    let name: String
    var id: String?
    var classes: [Substring] = []
    /// `epub:type` values (any prefix).
    var types: [Substring] = []
    /// `role` values (DPUB-ARIA).
    var roles: [Substring] = []
    var hidden = false
    var href: String?
    /// A page-break marker's label: its `title`, else its `aria-label`.
    var label: String?
    /// `ssml:ph` (a pronunciation for the element's text) and `ssml:alphabet`, under any prefix
    /// bound to the SSML namespace.
    var ssmlPhoneme: String?
    var ssmlAlphabet: String?

    static let ssmlNamespace = "http://www.w3.org/2001/10/synthesis"

    /// Reads `attributes`; `ssmlPrefixes` learns prefixes this element binds to the SSML namespace.
    init(name: String, attributes: [String: String], ssmlPrefixes: inout Set<String>) {
        self.name = name
        for (key, value) in attributes where key.hasPrefix("xmlns:") && value == Self.ssmlNamespace {
            ssmlPrefixes.insert(String(key.dropFirst(6)))
        }
        for (key, value) in attributes {
            switch key {
            case "id": id = value
            case "name" where name == "a": if id == nil { id = value }
            case "role": roles = value.split(whereSeparator: \.isWhitespace)
            case "hidden": hidden = true
            case "class": classes = value.split(whereSeparator: \.isWhitespace)
            case "href": href = value
            case "title": label = value
            case "aria-label": if label == nil { label = value }
            default:
                if key.hasSuffix(":type") { types = value.split(whereSeparator: \.isWhitespace) }
                if let colon = key.firstIndex(of: ":"), ssmlPrefixes.contains(String(key[..<colon])) {
                    switch key[key.index(after: colon)...] {
                    case "ph": ssmlPhoneme = value
                    case "alphabet": ssmlAlphabet = value
                    default: break
                    }
                }
            }
        }
    }

    /// An EPUB 3 or DPUB-ARIA page-break marker.
    var isPageBreak: Bool { types.contains("pagebreak") || roles.contains("doc-pagebreak") }

    /// A line or page number printed in the margin, not text to read.
    var isNumber: Bool { classes.contains { Self.numberClasses.contains($0) } }

    static let numberClasses: Set<Substring> = [
        "lnum", "linenum", "linenumber", "line-number", "linenr", "pagenum", "pagenumber", "page-number",
    ]

    /// An element whose content is never read aloud (scripts, styles, navigation, media…).
    var isNeverRead: Bool { Self.skippedElements.contains(name) }

    /// An element that starts a block of its own (a paragraph, heading, list item, cell…).
    var startsBlock: Bool { Self.blockElements.contains(name) }

    static let skippedElements: Set<String> = [
        "script", "style", "head", "nav", "aside", "svg", "math", "template", "audio", "video",
        "canvas", "object", "iframe", "rt", "rp", "noscript", "select", "button", "input", "textarea",
        "title",
    ]
    static let blockElements: Set<String> = [
        "p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "li", "dt", "dd", "blockquote", "pre", "td",
        "th", "tr", "caption", "figcaption", "figure", "section", "article", "header", "footer",
        "main", "body", "hr", "br", "table", "thead", "tbody", "tfoot", "ul", "ol", "dl", "address",
        "center", "hgroup", "details", "summary", "legend", "fieldset", "form", "html", "line",
        "l", "lg", "linegroup",
    ]
}
