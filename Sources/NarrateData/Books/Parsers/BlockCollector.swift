import NarrateDomain

/// Turns markup events (from `XMLParser` or the lenient `HTMLScanner`) into readable blocks.
///
/// A block is one paragraph, heading, list item, verse line, table cell…: whatever a reader would
/// pause after. What is not read aloud is dropped here: scripts, styles, the `<head>`, images,
/// navigation, page numbers, note references and note bodies. Links whose target turns out to be a
/// note are kept aside until the whole book is read, since a note usually comes after its
/// reference; `finish()` removes them.
///
/// What it gathers goes into a `RawBlockCollection`, which also makes the final clean-up; a
/// `NoteLinkTracker` tells note links apart and a `MatterCapture` lists what is left out.
final class BlockCollector {
    // Configuration
    /// `document#id` keys where a chapter starts: the block there must start fresh.
    var chapterTargets: Set<String> = []
    /// `document#id` (or `document`) → print page label, from the book's page list.
    var pageListTargets: [String: String] = [:]
    /// Whether `epub:type="pagebreak"` / `role="doc-pagebreak"` elements start pages (when there
    /// is no page list).
    var usesPageBreakMarkers = true
    /// Whether matter that is not the book (boilerplate, contents lists, notes, imprints) is read
    /// too, as `--include-matter` asks.
    var includesMatter = false

    // Output
    private var raw = RawBlockCollection()
    private var noteLinks = NoteLinkTracker()
    private var matter = MatterCapture()
    /// The text of each element with an SSML `ph` attribute and its pronunciation (EPUB 3
    /// text-to-speech), in document order.
    var inlinePronunciations: [PronunciationEntry] { raw.pronunciations }
    /// Prefixes bound to the SSML namespace (`ssml` unless a document binds another).
    private var ssmlPrefixes: Set<String> = ["ssml"]

    // State
    private var stack: [OpenElement] = []
    private var skipDepth = 0
    private var current = ""
    private var currentHasText = false
    private var currentLinks: [LinkSpan] = []
    private var linkStart: (offset: Int, target: String, ownKey: String?)?
    private var heading: (level: Int, rawIndex: Int, text: String)?
    private var pageBreakLabel: (markerIndex: Int, text: String)?
    private var titleText: String?
    private var document = ""
    private var documentDirectory = ""
    private var documentStart = 0
    /// An element id seen in the current block with no text after it yet, and where.
    private var pendingAnchor: (key: String, offset: Int)?

    /// Starts a new document; `name` is its archive entry name (or file name).
    func beginDocument(_ name: String) {
        flush()
        stack.removeAll()
        skipDepth = 0
        noteLinks.beginDocument()
        linkStart = nil
        heading = nil
        pageBreakLabel = nil
        titleText = nil
        matter.beginDocument()
        pendingAnchor = nil
        document = name
        documentDirectory = EPUBPath.directory(of: name)
        documentStart = raw.blocks.count
        raw.anchors[name] = raw.blocks.count
        if let label = pageListTargets[name] {
            raw.markers.append(RawBlockCollection.PageMarker(rawIndex: raw.blocks.count, label: label))
        }
    }

    /// Ends the current document.
    func endDocument() {
        flush()
        noteLinks.endDocument(document, isEmpty: raw.blocks.count == documentStart)
        raw.documentRanges[document] = documentStart..<raw.blocks.count
        if let titleText {
            raw.documentTitles[document] = MarkupText.collapseWhitespace(titleText)
        }
    }

    func startElement(_ rawName: String, attributes: [String: String]) {
        let element = ElementAttributes(name: MarkupText.normalizedName(rawName), attributes: attributes, ssmlPrefixes: &ssmlPrefixes)
        var open = OpenElement(name: element.name)
        open.ssmlAlphabet = element.ssmlAlphabet
        let role = includesMatter ? nil : MatterClassifier.role(
            types: element.types, roles: element.roles, classes: element.classes, id: element.id, elementName: element.name
        )
        var matterKind: SkippedMatter.Kind?
        if case let .matter(kind) = role { matterKind = kind }
        let idKey = element.id.map { document + "#" + $0 }
        if let idKey { registerID(idKey, isNote: role == .note, isMatter: matterKind != nil) }

        if element.isPageBreak {
            open.skips = true
            beginPageBreak(element, open: &open)
        }
        if role == .note {
            open.skips = true
            open.isNote = true
        }
        // Matter that is not the book: a printed table of contents (a `<section epub:type="toc">`
        // outside `<nav>`), a Gutenberg licence, an imprint…
        if role == .noteReference || matterKind != nil || element.hidden || element.isNumber || element.isNeverRead {
            open.skips = true
        }
        beginMatterCapture(kind: role == .note ? .notes : matterKind, element: element.name, open: &open)
        if element.name == "title", titleText == nil, stack.contains(where: { $0.name == "head" }) {
            // The document's <title> is not read, but it can name a chapter.
            open.isTitle = true
            titleText = ""
        }
        if open.skips {
            skipDepth += 1
            if open.isNote { noteLinks.enterNote() }
            stack.append(open)
            return
        }
        if skipDepth > 0 {
            stack.append(open)
            return
        }
        beginReadable(element, idKey: idKey, open: &open)
        stack.append(open)
    }

    /// Notes what an element's id stands for: a note target, skipped matter, a chapter start, a
    /// print page.
    private func registerID(_ key: String, isNote: Bool, isMatter: Bool) {
        noteLinks.register(key, isNote: isNote, isSkipping: skipDepth > 0)
        matter.register(key, isMatter: isMatter)
        if chapterTargets.contains(key) {
            flush()
            raw.anchors[key] = raw.blocks.count
        }
        if let label = pageListTargets[key] {
            flush()
            raw.markers.append(RawBlockCollection.PageMarker(rawIndex: raw.blocks.count, label: label))
        }
    }

    /// A page-break marker starts a print page (when the book has no page list); its label is
    /// its title, else its text.
    private func beginPageBreak(_ element: ElementAttributes, open: inout OpenElement) {
        guard usesPageBreakMarkers, skipDepth == 0 else { return }
        flush()
        let trimmed = element.label.map(MarkupText.collapseWhitespace)
        raw.markers.append(RawBlockCollection.PageMarker(rawIndex: raw.blocks.count, label: trimmed?.isEmpty == false ? trimmed : nil))
        if trimmed?.isEmpty ?? true {
            pageBreakLabel = (raw.markers.count - 1, "")
            open.endsPageBreak = true
        }
    }

    /// Starts listing skipped matter of `kind` at an element that begins it, or takes the first
    /// heading inside the matter being listed as its title.
    private func beginMatterCapture(kind: SkippedMatter.Kind?, element name: String, open: inout OpenElement) {
        if !matter.isCapturing, skipDepth == 0, open.skips, let kind {
            open.isMatter = true
            matter.begin(kind)
        } else if matter.beginsTitle(atElement: name) {
            open.endsHeading = true
        }
    }

    /// An element whose text is read: a block starts a new one (a heading is remembered), a link
    /// into the book is kept aside, an id marks where it stands, `ssml:ph` is noted.
    private func beginReadable(_ element: ElementAttributes, idKey: String?, open: inout OpenElement) {
        if element.startsBlock {
            open.isBlock = true
            flush()
            if let level = MarkupText.headingLevel(element.name), heading == nil {
                heading = (level, raw.blocks.count, "")
                open.endsHeading = true
            }
        } else if element.name == "a", linkStart == nil, let href = element.href, !EPUBPath.isExternal(href) {
            let (path, fragment) = EPUBPath.split(href)
            let target = path.isEmpty ? document : (EPUBPath.resolve(path, from: documentDirectory) ?? path)
            let offset = current.utf8.count
            let ownKey = idKey ?? pendingAnchor.flatMap { $0.offset == offset ? $0.key : nil }
            linkStart = (offset, fragment.map { target + "#" + $0 } ?? target, ownKey)
            open.endsLink = true
        }
        if let idKey {
            raw.idBlocks[idKey] = raw.blocks.count
            pendingAnchor = (idKey, current.utf8.count)
        }
        if let ssmlPhoneme = element.ssmlPhoneme {
            let alphabet = open.ssmlAlphabet ?? stack.last(where: { $0.ssmlAlphabet != nil })?.ssmlAlphabet ?? "ipa"
            open.phoneme = (ssmlPhoneme, alphabet, current.utf8.count, raw.blocks.count)
        }
    }

    func endElement(_ rawName: String) {
        let name = MarkupText.normalizedName(rawName)
        // Lenient HTML leaves elements open (`<p>`, `<li>`): close up to the matching one, if any.
        guard let position = stack.lastIndex(where: { $0.name == name }) else { return }
        while stack.count > position {
            guard let open = stack.popLast() else { break }
            close(open)
        }
    }

    private func close(_ open: OpenElement) {
        if open.skips {
            skipDepth -= 1
            if open.isNote { noteLinks.leaveNote() }
        }
        if open.endsPageBreak, let pending = pageBreakLabel {
            raw.labelMarker(pending.markerIndex, with: pending.text)
            pageBreakLabel = nil
        }
        if open.endsLink, let link = linkStart {
            currentLinks.append(LinkSpan(start: link.offset, end: current.utf8.count, target: link.target, ownKey: link.ownKey))
            linkStart = nil
        }
        if open.endsHeading { matter.endTitle() }
        if open.isMatter { matter.end() }
        if open.endsHeading, let pending = heading {
            raw.addHeading(level: pending.level, rawIndex: pending.rawIndex, text: pending.text, document: document)
            heading = nil
        }
        if let phoneme = open.phoneme, phoneme.block == raw.blocks.count {
            // Text that stayed in one block; a `ph` around whole blocks is not a word's.
            let text = String(decoding: current.utf8.dropFirst(phoneme.offset), as: UTF8.self)
            raw.addPronunciation(of: text, phonemes: phoneme.phonemes, alphabet: phoneme.alphabet)
        }
        if open.isBlock { flush() }
    }

    func characters(_ text: String) {
        if titleText != nil, stack.last?.isTitle == true {
            titleText? += text
        }
        if skipDepth > 0 {
            if pageBreakLabel != nil { pageBreakLabel?.text += text }
            matter.append(text)
            return
        }
        if pendingAnchor != nil, text.utf8.contains(where: { !MarkupText.isASCIISpace($0) }) {
            pendingAnchor = nil
        }
        current += text
        if !currentHasText, text.utf8.contains(where: { !MarkupText.isASCIISpace($0) }) {
            currentHasText = true
        }
        if heading != nil { heading?.text += text }
    }

    private func flush() {
        pendingAnchor = nil
        if currentHasText {
            if let link = linkStart {
                // A link that spans a block boundary: keep its part in this block.
                currentLinks.append(LinkSpan(start: link.offset, end: current.utf8.count, target: link.target, ownKey: link.ownKey))
                linkStart = (0, link.target, nil)
            }
            raw.blocks.append(RawBlock(text: current, links: currentLinks))
        } else if linkStart != nil {
            linkStart?.offset = 0
        }
        current = ""
        currentHasText = false
        currentLinks = []
    }

    /// Where the collector stands, to undo a document that has to be read again.
    struct Checkpoint {
        fileprivate var raw: RawBlockCollection.Checkpoint
        fileprivate var matter: MatterCapture.Checkpoint
    }

    func checkpoint() -> Checkpoint {
        Checkpoint(raw: raw.checkpoint(), matter: matter.checkpoint())
    }

    /// Forgets everything collected since `checkpoint` (the current document's partial read).
    func rollback(to checkpoint: Checkpoint) {
        current = ""
        currentHasText = false
        currentLinks = []
        raw.rollback(to: checkpoint.raw, document: document)
        matter.rollback(to: checkpoint.matter, document: document)
    }

    /// Drops links to notes, folds whitespace, drops empty blocks and maps every position.
    func finish() -> Collected {
        flush()
        return raw.finished(noteLinks: noteLinks, matter: matter, includesMatter: includesMatter)
    }
}
