import NarrateDomain

/// Reads WordprocessingML (`word/document.xml`, then the footnotes and endnotes parts) into a
/// `BlockCollector`, in the collector's XHTML terms, so the DOCX is read as an EPUB is: a
/// paragraph is a `p`, or an `h1`…`h6` when its style or outline level makes it a heading; a table
/// a `table`; a text box a `div` where it is anchored; a contents block (a "Table of Contents"
/// `w:sdt`) a `section epub:type="toc"`; each footnote and endnote a `div epub:type="footnote"`,
/// which the collector leaves out and counts as notes.
///
/// Never read: fields' instructions, hidden text (`w:vanish` on the run, its character style or
/// its paragraph's style), tracked deletions and moves away, placeholder text, the fallback copy
/// of a drawing (`mc:Fallback`), math, the separators of the notes parts.
final class DOCXBodyReader: XMLStreamHandler {
    static let namespaces: Set<String> = [
        "http://schemas.openxmlformats.org/wordprocessingml/2006/main", "http://purl.oclc.org/ooxml/wordprocessingml/main",
    ]
    static let compatibility = "http://schemas.openxmlformats.org/markup-compatibility/2006"
    /// Elements whose content is never read: tracked deletions and moves away, instructions and
    /// the properties and earlier properties of paragraphs, runs, tables and sections.
    static let skipped: Set<String> = [
        "del", "moveFrom", "delText", "delInstrText", "rPrChange", "pPrChange", "sectPr", "sectPrChange", "tblPr",
        "tblPrChange", "tblGrid", "trPr", "trPrChange", "tcPr", "tcPrChange", "tblPrEx", "footnotePr", "endnotePr",
        "object", "sdtEndPr", "customXmlPr", "smartTagPr", "fldData", "numberingChange",
    ]

    private struct Open {
        var name: XMLName
        var skips = false
        /// The collector element this one started, ended with it.
        var emitted: String?
        var paragraph: (style: String?, outlineLevel: Int?, opened: Bool)?
        var run: (style: String?, vanish: Bool?, skipsText: Bool)?
        var sdt: (isContents: Bool, showsPlaceholder: Bool)?
        var isSimpleField = false
        var isContentsBlock = false
    }

    let collector: BlockCollector
    let styles: DOCXStyles
    let includesMatter: Bool
    /// The text of the first paragraph in the Title style, for a book whose properties name no title.
    private(set) var titleParagraph: String?
    /// What fields outside a contents block made (a `TOC` field's contents list), left out.
    private(set) var fieldMatter: [SkippedMatter] = []

    private var stack: [Open] = []
    private var skipDepth = 0
    private var fields: [DOCXField] = []
    /// Fields begun past `DOCXField.maxNesting`, whose ends are not ours to match.
    private var untrackedFields = 0
    private var contentsBlocks = 0
    /// Whether the innermost paragraph has not started its block yet.
    private var paragraphPending = false
    private var titleText: String?

    init(collector: BlockCollector, styles: DOCXStyles, includesMatter: Bool) {
        self.collector = collector
        self.styles = styles
        self.includesMatter = includesMatter
    }

    /// Starts another part: nothing of the one before stays open.
    func beginPart() {
        stack.removeAll()
        skipDepth = 0
        fields.removeAll()
        untrackedFields = 0
        contentsBlocks = 0
    }

    func start(_ name: XMLName, attributes: [XMLName: String]) {
        var open = Open(name: name)
        defer { stack.append(open) }
        guard skipDepth == 0 else { return }
        if name.namespace == Self.compatibility {
            if name.local == "Fallback" { beginSkip(&open) }
            return
        }
        guard Self.namespaces.contains(name.namespace) else { return }
        func value(_ local: String) -> String? { attributes[XMLName(namespace: name.namespace, local: local)] }
        // The properties of the paragraph or run being read (not of a tag, a change, a style).
        let parent = stack.last?.name.local
        let ofParagraph = parent == "pPr" && stack.dropLast().last?.paragraph != nil
        let ofRun = parent == "rPr" && stack.dropLast().last?.run != nil
        // Run content (a `w:tab` is also a tab stop of the paragraph's properties).
        let inRun = stack.last?.run != nil
        switch name.local {
        case "p":
            open.paragraph = (nil, nil, false)
            paragraphPending = true
        case "pStyle" where ofParagraph: setParagraph { $0.style = value("val") }
        case "outlineLvl" where ofParagraph: setParagraph { $0.outlineLevel = value("val").flatMap { Int($0) } }
        case "rPr" where parent == "pPr": beginSkip(&open)
        case "r": open.run = (nil, nil, false)
        case "rStyle" where ofRun: setRun { $0.style = value("val") }
        case "vanish" where ofRun: setRun { $0.vanish = value("val").map(DOCXStyles.isOn) ?? true }
        case "tab" where inRun, "ptab" where inRun: emit("\t")
        case "br" where inRun: if ["page", "column"].contains(value("type")) { emit(" ") } else { emitBreak() }
        case "cr" where inRun: emitBreak()
        case "noBreakHyphen" where inRun: emit("-")
        case "footnoteReference", "endnoteReference":
            // A note marked with a symbol of its own: the symbol follows in the run.
            if value("customMarkFollows").map(DOCXStyles.isOn) == true { setRun { $0.skipsText = true } }
        case "fldChar": fieldCharacter(value("fldCharType"))
        case "fldSimple":
            open.isSimpleField = beginField(DOCXField(instruction: value("instr") ?? "", inResult: true))
        case "hyperlink":
            if let anchor = value("anchor"), !anchor.isEmpty { begin("a", ["href": "#" + anchor], &open) }
        case "bookmarkStart":
            if let bookmark = value("name"), !bookmark.isEmpty, bookmark != "_GoBack" {
                openParagraph()
                collector.startElement("span", attributes: ["id": bookmark])
                collector.endElement("span")
            }
        case "tbl": begin("table", [:], &open)
        case "tr": begin("tr", [:], &open)
        case "tc": begin("td", [:], &open)
        case "txbxContent": begin("div", [:], &open)
        case "sdt": open.sdt = (false, false)
        case "docPartGallery": if value("val") == "Table of Contents" { setSDT { $0.isContents = true } }
        case "showingPlcHdr": if value("val").map(DOCXStyles.isOn) ?? true { setSDT { $0.showsPlaceholder = true } }
        case "sdtContent": beginBlockContent(&open)
        case "footnote", "endnote":
            if let type = value("type"), type != "normal" {
                beginSkip(&open)
            } else {
                begin("div", ["epub:type": name.local, "id": "\(name.local)-\(value("id") ?? "")"], &open)
            }
        default:
            if Self.skipped.contains(name.local) { beginSkip(&open) }
        }
    }

    func end(_ name: XMLName) {
        guard let open = stack.popLast() else { return }
        if open.skips { skipDepth -= 1 }
        if open.isSimpleField { endField() }
        if open.isContentsBlock { contentsBlocks -= 1 }
        if open.paragraph != nil {
            paragraphPending = false
            // Words of one paragraph stay apart from the next's in matter counted here.
            if let index = fields.lastIndex(where: \.makesMatter) { fields[index].matterText += "\n" }
        }
        if open.paragraph?.opened == true, let text = titleText {
            titleParagraph = MarkupText.collapseWhitespace(text)
            titleText = nil
        }
        if let emitted = open.emitted {
            collector.endElement(emitted)
            // Paragraphs follow each other without white space: the collector's count of the
            // words it leaves out (notes, contents) must not run them together.
            if emitted != "a" { collector.characters("\n") }
        }
    }

    func text(_ text: String) {
        guard skipDepth == 0, let innermost = stack.last?.name, Self.namespaces.contains(innermost.namespace) else { return }
        switch innermost.local {
        case "t": emit(text)
        case "instrText":
            if !fields.isEmpty, !fields[fields.count - 1].inResult { fields[fields.count - 1].instruction += text }
        default: break
        }
    }

    // MARK: - Paragraphs and runs

    /// Starts the collector's block for the innermost paragraph when its first content comes,
    /// its properties (style, outline level) read by then.
    private func openParagraph() {
        guard paragraphPending else { return }
        paragraphPending = false
        guard let index = stack.lastIndex(where: { $0.paragraph != nil }), let paragraph = stack[index].paragraph, !paragraph.opened else { return }
        let level = paragraph.outlineLevel.map { $0 >= 0 && $0 < 9 ? $0 + 1 : nil } ?? styles.headingLevel(paragraphStyle: paragraph.style)
        let element = level.map { "h\(min($0, 6))" } ?? "p"
        collector.startElement(element, attributes: [:])
        stack[index].emitted = element
        stack[index].paragraph?.opened = true
        if titleParagraph == nil, titleText == nil, styles.isTitle(paragraphStyle: paragraph.style) { titleText = "" }
    }

    private func setParagraph(_ change: (inout (style: String?, outlineLevel: Int?, opened: Bool)) -> Void) {
        guard let index = stack.lastIndex(where: { $0.paragraph != nil }), var paragraph = stack[index].paragraph else { return }
        change(&paragraph)
        stack[index].paragraph = paragraph
    }

    private func setRun(_ change: (inout (style: String?, vanish: Bool?, skipsText: Bool)) -> Void) {
        guard let index = stack.lastIndex(where: { $0.run != nil }), var run = stack[index].run else { return }
        change(&run)
        stack[index].run = run
    }

    private func setSDT(_ change: (inout (isContents: Bool, showsPlaceholder: Bool)) -> Void) {
        guard let index = stack.lastIndex(where: { $0.sdt != nil }), var sdt = stack[index].sdt else { return }
        change(&sdt)
        stack[index].sdt = sdt
    }

    /// Whether text here is shown: outside fields' instructions, in a run neither it, its
    /// character style nor its paragraph's style hides.
    private var isShown: Bool {
        guard skipDepth == 0, !fields.contains(where: { !$0.inResult || $0.kind == .noteNumber }) else { return false }
        guard let index = stack.lastIndex(where: { $0.run != nil }), let run = stack[index].run else { return true }
        if run.skipsText { return false }
        let paragraphStyle = stack[..<index].last(where: { $0.paragraph != nil })?.paragraph?.style
        return !(run.vanish ?? run.style.flatMap(styles.hides(characterStyle:)) ?? styles.hides(paragraphStyle: paragraphStyle))
    }

    private func emit(_ text: String) {
        guard isShown else { return }
        // A contents list made by a field outside a contents block is counted here, not read.
        if !includesMatter, contentsBlocks == 0, let index = fields.lastIndex(where: \.makesMatter) {
            fields[index].matterText += text
            return
        }
        openParagraph()
        if titleText != nil { titleText? += text }
        collector.characters(text)
    }

    private func emitBreak() {
        guard isShown else { return }
        openParagraph()
        collector.startElement("br", attributes: [:])
        collector.endElement("br")
    }

    private func begin(_ element: String, _ attributes: [String: String], _ open: inout Open) {
        openParagraph()
        collector.startElement(element, attributes: attributes)
        open.emitted = element
    }

    private func beginSkip(_ open: inout Open) {
        open.skips = true
        skipDepth += 1
    }

    /// A structured document tag's content: placeholder text is not read; a contents block is
    /// matter.
    private func beginBlockContent(_ open: inout Open) {
        guard let sdt = stack.last(where: { $0.sdt != nil })?.sdt else { return }
        if sdt.showsPlaceholder {
            beginSkip(&open)
        } else if sdt.isContents {
            begin("section", ["epub:type": "toc"], &open)
            open.isContentsBlock = true
            contentsBlocks += 1
        }
    }

    // MARK: - Fields

    private func fieldCharacter(_ type: String?) {
        switch type {
        case "begin": _ = beginField(DOCXField())
        case "separate":
            if untrackedFields == 0, !fields.isEmpty { fields[fields.count - 1].separate() }
        case "end": endField()
        default: break
        }
    }

    /// - Returns: whether the field is kept track of (its end must be matched).
    private func beginField(_ field: DOCXField) -> Bool {
        guard fields.count < DOCXField.maxNesting, untrackedFields == 0 else {
            untrackedFields += 1
            return false
        }
        fields.append(field)
        return true
    }

    private func endField() {
        if untrackedFields > 0 {
            untrackedFields -= 1
            return
        }
        guard let field = fields.popLast() else { return }
        if let matter = field.skippedMatter { fieldMatter.append(matter) }
    }
}
