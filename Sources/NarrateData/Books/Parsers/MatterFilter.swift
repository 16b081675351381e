import NarrateDomain

/// Finds, by their shape, blocks that are not the book, once a whole book's blocks are read: a
/// printed contents list (a run of entries that link into the book), notes whose only marking is
/// a marker link and a back-link (Project Gutenberg's `[1]`), and Project Gutenberg's header and
/// footer when no markup says what they are ("*** START OF THE PROJECT GUTENBERG EBOOK …").
struct MatterFilter {
    /// One link: the block it is in and its index among the block's links.
    struct LinkID: Hashable {
        var block: Int
        var link: Int
    }

    let blocks: [BlockCollector.RawBlock]
    let idBlocks: [String: Int]
    let headingBlocks: Set<Int>
    /// Blocks to leave out (raw indices).
    private(set) var dropped: Set<Int> = []
    /// Note markers to cut out of the blocks that keep them.
    private(set) var noteMarkers: Set<LinkID> = []
    private(set) var skipped: [SkippedMatter] = []
    private(set) var notes = (count: 0, words: 0)

    init(blocks: [BlockCollector.RawBlock], idBlocks: [String: Int], headingBlocks: Set<Int>) {
        self.blocks = blocks
        self.idBlocks = idBlocks
        self.headingBlocks = headingBlocks
    }

    /// Ids whose block was left out: a chapter that starts there has nothing left to read.
    func droppedTargets(idBlocks: [String: Int]) -> Set<String> {
        Set(idBlocks.lazy.filter { dropped.contains($0.value) }.map(\.key))
    }

    /// A marker link (`[1]`, `*`, `12`) whose target block links back to the marker: the target
    /// is a note body, the marker a note reference.
    mutating func findNotePairs(isNoteTarget: (String) -> Bool) {
        var owners: [String: LinkID] = [:]
        for (blockIndex, block) in blocks.enumerated() {
            for (linkIndex, link) in block.links.enumerated() {
                if let own = link.ownKey, owners[own] == nil { owners[own] = LinkID(block: blockIndex, link: linkIndex) }
            }
        }
        guard !owners.isEmpty else { return }
        for (bodyIndex, body) in blocks.enumerated() where !headingBlocks.contains(bodyIndex) {
            // A note body starts with its back-link ("[1] A remarkable eccentricity…").
            guard let backLink = body.links.first, Self.startsWith(backLink, in: body) else { continue }
            guard let forward = owners[backLink.target], forward.block != bodyIndex else { continue }
            let markerBlock = blocks[forward.block]
            let marker = markerBlock.links[forward.link]
            guard idBlocks[marker.target] == bodyIndex, Self.isMarker(text(of: marker, in: markerBlock)) else { continue }
            // Both blocks start with their link (a marker paragraph and its note): the later is the note.
            if Self.startsWith(marker, in: markerBlock), forward.block > bodyIndex { continue }
            do {
                noteMarkers.insert(forward)
                if dropped.insert(bodyIndex).inserted {
                    notes.count += 1
                    notes.words += Paginator.wordCount(body.text)
                }
            }
        }
    }

    /// Whether only white space comes before `link` in `block`.
    private static func startsWith(_ link: BlockCollector.LinkSpan, in block: BlockCollector.RawBlock) -> Bool {
        block.text.utf8.prefix(max(0, link.start)).allSatisfy(MarkupText.isASCIISpace)
    }

    /// Three or more blocks in a row that are mostly links into the book (short blocks such as
    /// chapter numbers or page numbers may sit between them), with the "Contents" heading before
    /// them.
    mutating func findContentsLists(isNoteTarget: (String) -> Bool) {
        var start = 0
        while start < blocks.count {
            guard isEntry(start, isNoteTarget: isNoteTarget) else {
                start += 1
                continue
            }
            var entries = 1
            var lastEntry = start
            var gap = 0
            var next = start + 1
            while next < blocks.count {
                if dropped.contains(next) || headingBlocks.contains(next) { break }
                if isEntry(next, isNoteTarget: isNoteTarget) {
                    entries += 1
                    lastEntry = next
                    gap = 0
                } else if gap < 3, Paginator.wordCount(blocks[next].text) <= 12 {
                    gap += 1
                } else {
                    break
                }
                next += 1
            }
            let length = lastEntry - start + 1
            if entries >= 3, entries * 3 >= length {
                // Cells before the first entry and after the last (a number, a page) belong to it.
                var first = start
                while first > 0, start - first < 2, isCell(first - 1) { first -= 1 }
                var last = lastEntry
                while last + 1 < blocks.count, last - lastEntry < 2, isCell(last + 1) { last += 1 }
                var title = "Contents"
                if first > 0, !dropped.contains(first - 1), let heading = contentsHeading(first - 1) {
                    first -= 1
                    title = heading
                }
                let range = first...last
                dropped.formUnion(range)
                skipped.append(SkippedMatter(kind: .contents, title: title, words: range.reduce(0) { $0 + Paginator.wordCount(blocks[$1].text) }))
            }
            start = lastEntry + 1
        }
    }

    /// Project Gutenberg's header (up to "*** START OF …") and footer (from "*** END OF …" or
    /// "End of Project Gutenberg's …" to the end), in books whose markup does not mark them.
    mutating func findGutenbergMarkers() {
        let blocks = self.blocks
        let dropped = self.dropped
        /// The block's text when it could be a marker (it starts with "*" or "E"), folded.
        func candidate(_ index: Int) -> String? {
            guard !dropped.contains(index), let first = blocks[index].text.utf8.first(where: { !MarkupText.isASCIISpace($0) }),
                  first == UInt8(ascii: "*") || first == UInt8(ascii: "E") || first == UInt8(ascii: "e") else { return nil }
            return MarkupText.collapseWhitespace(blocks[index].text)
        }
        if let start = blocks.indices.first(where: { $0 < blocks.count / 2 && candidate($0).map(GutenbergStripper.isHeaderEnd) == true }) {
            // The header begins at its first mention of Project Gutenberg (a title page may come first).
            var first = start
            var index = start - 1
            while index >= 0, start - index <= 400 {
                if blocks[index].text.contains("Gutenberg") || blocks[index].text.contains("GUTENBERG") { first = index }
                index -= 1
            }
            drop(first...start, kind: .gutenbergBoilerplate, title: "Project Gutenberg header")
        }
        if let end = blocks.indices.first(where: { $0 >= blocks.count / 2 && candidate($0).map(GutenbergStripper.isFooterStart) == true }) {
            drop(end...(blocks.count - 1), kind: .gutenbergBoilerplate, title: "Project Gutenberg footer and licence")
        }
    }

    private mutating func drop(_ range: ClosedRange<Int>, kind: SkippedMatter.Kind, title: String) {
        let words = range.reduce(0) { dropped.contains($1) ? $0 : $0 + Paginator.wordCount(blocks[$1].text) }
        dropped.formUnion(range)
        if words > 0 { skipped.append(SkippedMatter(kind: kind, title: title, words: words)) }
    }

    /// A table cell of a contents list: a chapter or page number ("I.", "7", "xii").
    private func isCell(_ index: Int) -> Bool {
        guard !dropped.contains(index), !headingBlocks.contains(index), blocks[index].links.isEmpty else { return false }
        let folded = MarkupText.collapseWhitespace(blocks[index].text)
        guard folded.split(separator: " ").count <= 2 else { return false }
        return folded.allSatisfy { $0.isNumber || $0 == "." || $0 == " " || "IVXLCDMivxlcdm".contains($0) }
    }

    /// A block that is mostly a link into the book, other than to a note or to itself.
    private func isEntry(_ index: Int, isNoteTarget: (String) -> Bool) -> Bool {
        let block = blocks[index]
        guard !block.links.isEmpty, !headingBlocks.contains(index), !dropped.contains(index) else { return false }
        let utf8 = Array(block.text.utf8)
        var linked = 0
        for link in block.links where !isNoteTarget(link.target) && idBlocks[link.target] != index {
            let start = min(max(link.start, 0), utf8.count)
            let end = min(max(link.end, start), utf8.count)
            linked += utf8[start..<end].count { !MarkupText.isASCIISpace($0) }
        }
        let total = utf8.count { !MarkupText.isASCIISpace($0) }
        return linked > 0 && linked * 10 >= total * 6
    }

    /// The heading text when block `index` is a heading such as "Contents" or "Table des matières".
    private func contentsHeading(_ index: Int) -> String? {
        let folded = MarkupText.collapseWhitespace(blocks[index].text)
        return TextContentsList.headings.contains(TextContentsList.headingKey(folded)) ? folded : nil
    }

    private func text(of link: BlockCollector.LinkSpan, in block: BlockCollector.RawBlock) -> String {
        let utf8 = Array(block.text.utf8)
        let start = min(max(link.start, 0), utf8.count)
        let end = min(max(link.end, start), utf8.count)
        return MarkupText.collapseWhitespace(String(decoding: utf8[start..<end], as: UTF8.self))
    }

    /// "[1]", "12", "*", "†", "(a)", "Note 3": what a note marker looks like.
    static func isMarker(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.count <= 12 && text.split(separator: " ").count <= 2
    }
}
