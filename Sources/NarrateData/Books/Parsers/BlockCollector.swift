import NarrateDomain

/// Turns markup events (from `XMLParser` or the lenient `HTMLScanner`) into readable blocks.
///
/// A block is one paragraph, heading, list item, verse line, table cell…: whatever a reader would
/// pause after. What is not read aloud is dropped here: scripts, styles, the `<head>`, images,
/// navigation, page numbers, note references and note bodies. Links whose target turns out to be a
/// note are kept aside until the whole book is read, since a note usually comes after its
/// reference; `finish()` removes them.
final class BlockCollector {
    /// One paragraph-like unit before the final clean-up.
    struct RawBlock {
        var text: String
        /// Links inside `text` (UTF-8 offsets) whose target decides whether they are read.
        var links: [LinkSpan]
    }

    struct LinkSpan {
        var start: Int
        var end: Int
        var target: String
        /// `document#id` of the link itself (or of an empty anchor right before it), which a
        /// note's back-link points to.
        var ownKey: String?
    }

    struct Heading {
        var level: Int
        var rawIndex: Int
        var text: String
        var document: String
    }

    /// A print-page boundary found in the content.
    struct PageMarker {
        var rawIndex: Int
        var label: String?
    }

    /// The result: clean blocks and where things start, as indices into `blocks`.
    struct Collected {
        var blocks: [String]
        /// `document#id` or `document` → index of the first block at or after it.
        var anchors: [String: Int]
        var pageMarkers: [(index: Int, label: String?)]
        var headings: [(level: Int, index: Int, text: String, document: String)]
        var documentTitles: [String: String]
        /// Index of each document's first block and one past its last.
        var documentRanges: [String: Range<Int>]
        /// What was left out, in reading order (notes summed up last).
        var skipped: [SkippedMatter]
        /// `document#id` keys inside skipped matter: a TOC entry pointing there has nothing to read.
        var matterTargets: Set<String>
    }

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
    private(set) var rawBlocks: [RawBlock] = []
    private var rawAnchors: [String: Int] = [:]
    private var markers: [PageMarker] = []
    private var headings: [Heading] = []
    private var noteTargets: Set<String> = []
    private var noteDocuments: Set<String> = []
    private var documentTitles: [String: String] = [:]
    private var rawDocumentRanges: [String: Range<Int>] = [:]
    private var skipped: [SkippedMatter] = []
    private var matterTargets: Set<String> = []
    private var notes = (count: 0, words: 0)
    /// `document#id` → raw index of the block the id is in, for note back-links.
    private var idBlocks: [String: Int] = [:]
    /// The text of each element with an SSML `ph` attribute and its pronunciation (EPUB 3
    /// text-to-speech), in document order.
    private(set) var inlinePronunciations: [PronunciationEntry] = []
    /// Prefixes bound to the SSML namespace (`ssml` unless a document binds another).
    private var ssmlPrefixes: Set<String> = ["ssml"]

    // State
    private struct OpenElement {
        var name: String
        var skips = false
        var isNote = false
        var isBlock = false
        var endsLink = false
        var endsHeading = false
        var endsPageBreak = false
        var isTitle = false
        /// `ssml:alphabet` here, inherited by the `ssml:ph` of descendants.
        var ssmlAlphabet: String?
        /// An `ssml:ph` pronunciation for this element's text, and where its text starts.
        var phoneme: (phonemes: String, alphabet: String, offset: Int, block: Int)?
        var isMatter = false
    }

    /// Skipped matter being read through, to list it: its kind, first heading and text.
    private struct MatterCapture {
        var kind: SkippedMatter.Kind
        var heading: String?
        var headingText: String?
        var text = ""
    }

    private var stack: [OpenElement] = []
    private var skipDepth = 0
    private var noteDepth = 0
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
    private var documentHadNotes = false
    private var matter: MatterCapture?
    /// An element id seen in the current block with no text after it yet, and where.
    private var pendingAnchor: (key: String, offset: Int)?

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

    /// Starts a new document; `name` is its archive entry name (or file name).
    func beginDocument(_ name: String) {
        flush()
        stack.removeAll()
        skipDepth = 0
        noteDepth = 0
        linkStart = nil
        heading = nil
        pageBreakLabel = nil
        titleText = nil
        documentHadNotes = false
        matter = nil
        pendingAnchor = nil
        document = name
        documentDirectory = EPUBPath.directory(of: name)
        documentStart = rawBlocks.count
        rawAnchors[name] = rawBlocks.count
        if let label = pageListTargets[name] {
            markers.append(PageMarker(rawIndex: rawBlocks.count, label: label))
        }
    }

    /// Ends the current document.
    func endDocument() {
        flush()
        if documentHadNotes, rawBlocks.count == documentStart {
            noteDocuments.insert(document)
        }
        rawDocumentRanges[document] = documentStart..<rawBlocks.count
        if let titleText {
            documentTitles[document] = MarkupText.collapseWhitespace(titleText)
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
            documentHadNotes = true
        }
        // Matter that is not the book: a printed table of contents (a `<section epub:type="toc">`
        // outside `<nav>`), a Gutenberg licence, an imprint…
        if role == .noteReference || matterKind != nil || element.hidden || element.isNumber || Self.skippedElements.contains(element.name) {
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
            if open.isNote { noteDepth += 1 }
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
        if skipDepth > 0 || isNote {
            if noteDepth > 0 || isNote { noteTargets.insert(key) }
        }
        if matter != nil || isMatter {
            matterTargets.insert(key)
        }
        if chapterTargets.contains(key) {
            flush()
            rawAnchors[key] = rawBlocks.count
        }
        if let label = pageListTargets[key] {
            flush()
            markers.append(PageMarker(rawIndex: rawBlocks.count, label: label))
        }
    }

    /// A page-break marker starts a print page (when the book has no page list); its label is
    /// its title, else its text.
    private func beginPageBreak(_ element: ElementAttributes, open: inout OpenElement) {
        guard usesPageBreakMarkers, skipDepth == 0 else { return }
        flush()
        let trimmed = element.label.map(MarkupText.collapseWhitespace)
        markers.append(PageMarker(rawIndex: rawBlocks.count, label: trimmed?.isEmpty == false ? trimmed : nil))
        if trimmed?.isEmpty ?? true {
            pageBreakLabel = (markers.count - 1, "")
            open.endsPageBreak = true
        }
    }

    /// Starts listing skipped matter of `kind` at an element that begins it, or takes the first
    /// heading inside the matter being listed as its title.
    private func beginMatterCapture(kind: SkippedMatter.Kind?, element name: String, open: inout OpenElement) {
        if matter == nil, skipDepth == 0, open.skips, let kind {
            open.isMatter = true
            matter = MatterCapture(kind: kind)
        } else if matter != nil, matter?.heading == nil, matter?.headingText == nil, MarkupText.headingLevel(name) != nil {
            matter?.headingText = ""
            open.endsHeading = true
        }
    }

    /// An element whose text is read: a block starts a new one (a heading is remembered), a link
    /// into the book is kept aside, an id marks where it stands, `ssml:ph` is noted.
    private func beginReadable(_ element: ElementAttributes, idKey: String?, open: inout OpenElement) {
        if Self.blockElements.contains(element.name) {
            open.isBlock = true
            flush()
            if let level = MarkupText.headingLevel(element.name), heading == nil {
                heading = (level, rawBlocks.count, "")
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
            idBlocks[idKey] = rawBlocks.count
            pendingAnchor = (idKey, current.utf8.count)
        }
        if let ssmlPhoneme = element.ssmlPhoneme {
            let alphabet = open.ssmlAlphabet ?? stack.last(where: { $0.ssmlAlphabet != nil })?.ssmlAlphabet ?? "ipa"
            open.phoneme = (ssmlPhoneme, alphabet, current.utf8.count, rawBlocks.count)
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
            if open.isNote { noteDepth -= 1 }
        }
        if open.endsPageBreak, let pending = pageBreakLabel {
            let label = MarkupText.collapseWhitespace(pending.text)
            if !label.isEmpty, markers.indices.contains(pending.markerIndex) {
                markers[pending.markerIndex].label = label
            }
            pageBreakLabel = nil
        }
        if open.endsLink, let link = linkStart {
            currentLinks.append(LinkSpan(start: link.offset, end: current.utf8.count, target: link.target, ownKey: link.ownKey))
            linkStart = nil
        }
        if open.endsHeading, let text = matter?.headingText {
            let folded = MarkupText.collapseWhitespace(text)
            matter?.heading = folded.isEmpty ? nil : folded
            matter?.headingText = nil
        }
        if open.isMatter, let finished = matter {
            matter = nil
            let words = Paginator.wordCount(finished.text)
            if finished.kind == .notes {
                notes.count += 1
                notes.words += words
            } else if words > 0 {
                skipped.append(SkippedMatter(kind: finished.kind, title: finished.heading ?? MarkupText.opening(of: finished.text), words: words))
            }
        }
        if open.endsHeading, let pending = heading {
            let text = MarkupText.collapseWhitespace(pending.text)
            if !text.isEmpty {
                headings.append(Heading(level: pending.level, rawIndex: pending.rawIndex, text: text, document: document))
            }
            heading = nil
        }
        if let phoneme = open.phoneme, phoneme.block == rawBlocks.count {
            // Text that stayed in one block; a `ph` around whole blocks is not a word's.
            let text = MarkupText.collapseWhitespace(String(decoding: current.utf8.dropFirst(phoneme.offset), as: UTF8.self))
            let phonemes = MarkupText.collapseWhitespace(phoneme.phonemes)
            if !text.isEmpty, !phonemes.isEmpty {
                inlinePronunciations.append(PronunciationEntry(graphemes: [text], phonemes: phonemes, alphabet: phoneme.alphabet))
            }
        }
        if open.isBlock { flush() }
    }

    func characters(_ text: String) {
        if titleText != nil, stack.last?.isTitle == true {
            titleText? += text
        }
        if skipDepth > 0 {
            if pageBreakLabel != nil { pageBreakLabel?.text += text }
            if matter != nil {
                matter?.text += text
                if matter?.headingText != nil { matter?.headingText? += text }
            }
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
            rawBlocks.append(RawBlock(text: current, links: currentLinks))
        } else if linkStart != nil {
            linkStart?.offset = 0
        }
        current = ""
        currentHasText = false
        currentLinks = []
    }

    /// Where the collector stands, to undo a document that has to be read again.
    struct Checkpoint {
        fileprivate var rawCount: Int
        fileprivate var markerCount: Int
        fileprivate var headingCount: Int
        fileprivate var skippedCount: Int
        fileprivate var notes: (count: Int, words: Int)
        fileprivate var pronunciationCount: Int
    }

    func checkpoint() -> Checkpoint {
        Checkpoint(
            rawCount: rawBlocks.count, markerCount: markers.count, headingCount: headings.count, skippedCount: skipped.count, notes: notes,
            pronunciationCount: inlinePronunciations.count
        )
    }

    /// Forgets everything collected since `checkpoint` (the current document's partial read).
    func rollback(to checkpoint: Checkpoint) {
        current = ""
        currentHasText = false
        currentLinks = []
        rawBlocks.removeSubrange(min(checkpoint.rawCount, rawBlocks.count)...)
        markers.removeSubrange(min(checkpoint.markerCount, markers.count)...)
        headings.removeSubrange(min(checkpoint.headingCount, headings.count)...)
        skipped.removeSubrange(min(checkpoint.skippedCount, skipped.count)...)
        notes = checkpoint.notes
        inlinePronunciations.removeSubrange(min(checkpoint.pronunciationCount, inlinePronunciations.count)...)
        let prefix = document + "#"
        rawAnchors = rawAnchors.filter { !$0.key.hasPrefix(prefix) }
        idBlocks = idBlocks.filter { !$0.key.hasPrefix(prefix) }
        matterTargets = matterTargets.filter { !$0.hasPrefix(prefix) }
    }

    /// Drops links to notes, folds whitespace, drops empty blocks and maps every position.
    func finish() -> Collected {
        flush()
        var filter = MatterFilter(blocks: rawBlocks, idBlocks: idBlocks, headingBlocks: Set(headings.map(\.rawIndex)))
        if !includesMatter {
            filter.findNotePairs(isNoteTarget: isNoteTarget)
            filter.findContentsLists(isNoteTarget: isNoteTarget)
            filter.findGutenbergMarkers()
        }
        var blocks: [String] = []
        blocks.reserveCapacity(rawBlocks.count)
        var finalIndex = [Int](repeating: 0, count: rawBlocks.count + 1)
        for (rawIndex, block) in rawBlocks.enumerated() {
            finalIndex[rawIndex] = blocks.count
            if filter.dropped.contains(rawIndex) { continue }
            let text = removingNoteLinks(from: block, rawIndex: rawIndex, markers: filter.noteMarkers)
            // Unicode normalization (NFC) runs once per page, in `BookLayout`: far cheaper than per block.
            let folded = MarkupText.collapseWhitespace(text)
            // A block with no letter or digit ("* * *", stray "]>") has nothing to say.
            if MarkupText.hasLetterOrDigit(folded) {
                blocks.append(folded)
            }
        }
        finalIndex[rawBlocks.count] = blocks.count
        func map(_ raw: Int) -> Int { finalIndex[min(max(raw, 0), rawBlocks.count)] }
        var allSkipped = skipped + filter.skipped
        let noteCount = notes.count + filter.notes.count
        if noteCount > 0 {
            allSkipped.append(SkippedMatter(kind: .notes, title: "Notes", words: notes.words + filter.notes.words))
        }
        return Collected(
            blocks: blocks,
            anchors: rawAnchors.mapValues(map),
            pageMarkers: markers.map { (map($0.rawIndex), $0.label) },
            headings: headings.filter { !filter.dropped.contains($0.rawIndex) }.map { ($0.level, map($0.rawIndex), $0.text, $0.document) },
            documentTitles: documentTitles,
            documentRanges: rawDocumentRanges.mapValues { map($0.lowerBound)..<map($0.upperBound) },
            skipped: allSkipped,
            matterTargets: matterTargets.union(filter.droppedTargets(idBlocks: idBlocks))
        )
    }

    private func isNoteTarget(_ target: String) -> Bool {
        if noteTargets.contains(target) { return true }
        let document = EPUBPath.split(target).path
        return noteDocuments.contains(document)
    }

    private func removingNoteLinks(from block: RawBlock, rawIndex: Int, markers: Set<MatterFilter.LinkID>) -> String {
        guard !block.links.isEmpty, !includesMatter else { return block.text }
        let notes = block.links.indices.filter { isNoteTarget(block.links[$0].target) || markers.contains(MatterFilter.LinkID(block: rawIndex, link: $0)) }
            .map { block.links[$0] }
        guard !notes.isEmpty else { return block.text }
        let utf8 = Array(block.text.utf8)
        var kept: [UInt8] = []
        kept.reserveCapacity(utf8.count)
        var position = 0
        for span in notes.sorted(by: { $0.start < $1.start }) {
            let start = min(max(span.start, position), utf8.count)
            let end = min(max(span.end, start), utf8.count)
            kept.append(contentsOf: utf8[position..<start])
            position = end
        }
        kept.append(contentsOf: utf8[min(position, utf8.count)...])
        return String(decoding: kept, as: UTF8.self)
    }
}
