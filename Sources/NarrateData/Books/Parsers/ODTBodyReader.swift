import NarrateDomain

/// Reads an ODT's `content.xml` into a `BlockCollector`, in the collector's XHTML terms, so the
/// ODT is read as an EPUB is: `text:p` is a `p`, or an `h1`…`h6` when its style has an outline
/// level; `text:h` a heading of its outline level; tables, lists and text boxes where they stand;
/// a table of contents (`text:table-of-content`) a `section epub:type="toc"`, an alphabetical
/// index an `index`. Footnotes and endnotes are kept aside and given to the collector after the
/// body (`finishNotes()`), each a `div epub:type="footnote"`, which it leaves out and counts.
///
/// Never read: hidden text (a style with `text:display="none"`, hidden sections, hidden-text and
/// hidden-paragraph fields that say so), tracked changes (the deleted text kept in
/// `text:tracked-changes`), annotations, note citations, list and outline numbers, index
/// templates, ruby annotations, images' titles and descriptions, placeholders.
final class ODTBodyReader: XMLStreamHandler {
    static let office = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
    static let text = ODTStyles.textNamespace
    static let table = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
    static let draw = "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"
    static let svg = "urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"
    static let xlink = "http://www.w3.org/1999/xlink"

    /// Elements never read, by namespace.
    static let skipped: [String: Set<String>] = [
        text: [
            "note-citation", "number", "tracked-changes", "sequence-decls", "variable-decls", "user-field-decls",
            "dde-connection-decls", "note-ref", "placeholder", "ruby-text", "table-of-content-source",
            "alphabetical-index-source", "illustration-index-source", "table-index-source", "object-index-source",
            "user-index-source", "bibliography-source", "index-title-template",
        ],
        office: ["annotation", "annotation-end", "forms", "binary-data", "scripts", "font-face-decls", "event-listeners"],
        table: ["covered-table-cell", "table-source"],
        draw: ["image", "object", "object-ole", "plugin", "applet"],
        svg: ["title", "desc"],
    ]
    /// Indexes that are not the book, as the `epub:type` of the section they become.
    static let indexes: [String: String] = [
        "table-of-content": "toc", "alphabetical-index": "index", "illustration-index": "loi", "table-index": "lot",
        "object-index": "lot", "user-index": "lot",
    ]
    /// Elements of the text namespace whose own character data is layout, not text.
    static let containers: Set<String> = ["note", "list", "list-item", "list-header", "section", "index-body", "index-title"]

    private enum Event {
        case start(String, [String: String])
        case end(String)
        case text(String)
    }

    private struct Open {
        var name: XMLName
        var skips = false
        var emitted: String?
        var isParagraph = false
        var hidesRest = false
        var recordsNote = false
        var noteClass: String?
        var style: ODTStyles.Style?
    }

    let collector: BlockCollector
    private(set) var styles: ODTStyles
    /// The text of the first paragraph in the Title style, for a book whose meta names no title.
    private(set) var titleParagraph: String?

    private var stack: [Open] = []
    private var skipDepth = 0
    private var paragraphDepth = 0
    private var inAutomaticStyles = false
    /// The notes' events, given to the collector after the body.
    private var notes: [Event] = []
    private var recording = 0
    private var noteCount = 0
    private var titleText: String?

    init(collector: BlockCollector, styles: ODTStyles) {
        self.collector = collector
        self.styles = styles
    }

    func start(_ name: XMLName, attributes: [XMLName: String]) {
        var open = Open(name: name)
        defer { stack.append(open) }
        guard skipDepth == 0 else { return }
        func value(_ namespace: String, _ local: String) -> String? { attributes[XMLName(namespace: namespace, local: local)] }
        if Self.skipped[name.namespace]?.contains(name.local) == true {
            beginSkip(&open)
            return
        }
        if inAutomaticStyles {
            readStyle(name, value: value, open: &open)
            return
        }
        switch (name.namespace, name.local) {
        case (Self.office, "automatic-styles"): inAutomaticStyles = true
        case (Self.text, "p"), (Self.text, "h"):
            let style = value(Self.text, "style-name")
            if styles.hides(style, family: "paragraph") {
                beginSkip(&open)
                return
            }
            var level = styles.headingLevel(paragraphStyle: style)
            if name.local == "h" { level = value(Self.text, "outline-level").flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } ?? level ?? 1 }
            begin(level.map { "h\(min($0, 6))" } ?? "p", [:], &open)
            open.isParagraph = true
            paragraphDepth += 1
            if titleParagraph == nil, titleText == nil, recording == 0, styles.isTitle(paragraphStyle: style) { titleText = "" }
        case (Self.text, "span"):
            if styles.hides(value(Self.text, "style-name"), family: "text") { beginSkip(&open) }
        case (Self.text, "section"):
            if value(Self.text, "display") == "none" || styles.hides(value(Self.text, "style-name"), family: "section") { beginSkip(&open) }
        case (Self.text, "hidden-text"):
            if value(Self.text, "is-hidden") == "true" { beginSkip(&open) }
        case (Self.text, "hidden-paragraph"):
            // It hides the paragraph it is in: what comes after it there is not read.
            if value(Self.text, "is-hidden") == "true", let index = stack.lastIndex(where: \.isParagraph) { stack[index].hidesRest = true }
        case (Self.text, "a"):
            if let href = value(Self.xlink, "href"), href.hasPrefix("#") { begin("a", ["href": href], &open) }
        case (Self.text, "bookmark"), (Self.text, "bookmark-start"):
            if let id = value(Self.text, "name"), !id.isEmpty {
                out(.start("span", ["id": id]))
                out(.end("span"))
            }
        case (Self.text, "s"): emit(String(repeating: " ", count: min(max(value(Self.text, "c").flatMap { Int($0) } ?? 1, 1), 1_000)))
        case (Self.text, "tab"): emit("\t")
        case (Self.text, "line-break"):
            if isShown {
                out(.start("br", [:]))
                out(.end("br"))
            }
        case (Self.text, "list"): begin("ul", [:], &open)
        case (Self.text, "list-item"), (Self.text, "list-header"): begin("li", [:], &open)
        case (Self.text, "note"):
            open.noteClass = value(Self.text, "note-class")
        case (Self.text, "note-body"):
            noteCount += 1
            let noteClass = stack.last(where: { $0.name.local == "note" })?.noteClass
            recording += 1
            open.recordsNote = true
            begin("div", ["epub:type": noteClass == "endnote" ? "endnote" : "footnote", "id": "note-\(noteCount)"], &open)
        case (Self.text, "index-title"): begin("h2", [:], &open)
        case (Self.table, "table"): begin("table", [:], &open)
        case (Self.table, "table-row"): begin("tr", [:], &open)
        case (Self.table, "table-cell"): begin("td", [:], &open)
        case (Self.draw, "text-box"): begin("div", [:], &open)
        default:
            if name.namespace == Self.text, let type = Self.indexes[name.local] { begin("section", ["epub:type": type], &open) }
        }
    }

    func end(_ name: XMLName) {
        guard let open = stack.popLast() else { return }
        if open.skips { skipDepth -= 1 }
        if inAutomaticStyles {
            if name.namespace == Self.office, name.local == "automatic-styles" { inAutomaticStyles = false }
            if let style = open.style { styles.add(style) }
            return
        }
        if open.isParagraph {
            paragraphDepth -= 1
            if let text = titleText {
                titleParagraph = MarkupText.collapseWhitespace(text)
                titleText = nil
            }
        }
        if let emitted = open.emitted {
            out(.end(emitted))
            // Paragraphs follow each other without white space: the collector's count of the
            // words it leaves out (notes, contents) must not run them together.
            if emitted != "a" { out(.text("\n")) }
        }
        if open.recordsNote { recording -= 1 }
    }

    func text(_ text: String) {
        guard paragraphDepth > 0, let innermost = stack.last?.name, innermost.namespace == Self.text, !Self.containers.contains(innermost.local) else { return }
        emit(text)
    }

    /// Gives the notes kept aside to the collector (in a document of their own, after the body's).
    func finishNotes() {
        for event in notes { apply(event) }
        notes.removeAll()
    }

    // MARK: - Output

    private var isShown: Bool {
        skipDepth == 0 && !stack.contains(where: \.hidesRest)
    }

    private func emit(_ text: String) {
        guard isShown else { return }
        if titleText != nil, recording == 0 { titleText? += text }
        out(.text(text))
    }

    private func begin(_ element: String, _ attributes: [String: String], _ open: inout Open) {
        out(.start(element, attributes))
        open.emitted = element
    }

    private func beginSkip(_ open: inout Open) {
        open.skips = true
        skipDepth += 1
    }

    private func out(_ event: Event) {
        if recording > 0 { notes.append(event) } else { apply(event) }
    }

    private func apply(_ event: Event) {
        switch event {
        case let .start(name, attributes): collector.startElement(name, attributes: attributes)
        case let .end(name): collector.endElement(name)
        case let .text(text): collector.characters(text)
        }
    }

    // MARK: - Automatic styles

    private func readStyle(_ name: XMLName, value: (String, String) -> String?, open: inout Open) {
        switch (name.namespace, name.local) {
        case (ODTStyles.styleNamespace, "style"):
            open.style = ODTStyles.style(name: value(ODTStyles.styleNamespace, "name"), family: value(ODTStyles.styleNamespace, "family"))
            open.style?.parent = value(ODTStyles.styleNamespace, "parent-style-name")
            open.style?.outlineLevel = value(ODTStyles.styleNamespace, "default-outline-level").flatMap { Int($0) }
        case (ODTStyles.styleNamespace, "text-properties"):
            guard let display = value(Self.text, "display"), let index = stack.lastIndex(where: { $0.style != nil }) else { return }
            stack[index].style?.hidden = ODTStyles.hides(display)
        default:
            break
        }
    }
}
