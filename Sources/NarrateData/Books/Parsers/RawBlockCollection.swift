import NarrateDomain

/// What a `BlockCollector` has gathered so far, before the final clean-up: the raw blocks and
/// where things are in them (raw block indices).
struct RawBlockCollection {
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

    /// How much was gathered, to undo a document that has to be read again.
    struct Checkpoint {
        fileprivate var blockCount: Int
        fileprivate var markerCount: Int
        fileprivate var headingCount: Int
        fileprivate var pronunciationCount: Int
    }

    var blocks: [BlockCollector.RawBlock] = []
    /// `document#id` or `document` → raw index of the first block at or after it.
    var anchors: [String: Int] = [:]
    var markers: [PageMarker] = []
    var headings: [Heading] = []
    var documentTitles: [String: String] = [:]
    var documentRanges: [String: Range<Int>] = [:]
    /// `document#id` → raw index of the block the id is in, for note back-links.
    var idBlocks: [String: Int] = [:]
    /// The text of each element with an SSML `ph` attribute and its pronunciation (EPUB 3
    /// text-to-speech), in document order.
    var pronunciations: [PronunciationEntry] = []

    /// Labels page marker `index` with `text`, folded, unless that is empty.
    mutating func labelMarker(_ index: Int, with text: String) {
        let label = MarkupText.collapseWhitespace(text)
        if !label.isEmpty, markers.indices.contains(index) {
            markers[index].label = label
        }
    }

    /// Adds a heading with `text`, folded, unless that is empty.
    mutating func addHeading(level: Int, rawIndex: Int, text: String, document: String) {
        let text = MarkupText.collapseWhitespace(text)
        if !text.isEmpty {
            headings.append(Heading(level: level, rawIndex: rawIndex, text: text, document: document))
        }
    }

    /// Adds the pronunciation of `text` (an `ssml:ph`), both folded, unless either is empty.
    mutating func addPronunciation(of text: String, phonemes: String, alphabet: String) {
        let text = MarkupText.collapseWhitespace(text)
        let phonemes = MarkupText.collapseWhitespace(phonemes)
        if !text.isEmpty, !phonemes.isEmpty {
            pronunciations.append(PronunciationEntry(graphemes: [text], phonemes: phonemes, alphabet: alphabet))
        }
    }

    func checkpoint() -> Checkpoint {
        Checkpoint(blockCount: blocks.count, markerCount: markers.count, headingCount: headings.count, pronunciationCount: pronunciations.count)
    }

    /// Forgets what was gathered since `checkpoint`, and the positions of ids in `document`.
    mutating func rollback(to checkpoint: Checkpoint, document: String) {
        blocks.removeSubrange(min(checkpoint.blockCount, blocks.count)...)
        markers.removeSubrange(min(checkpoint.markerCount, markers.count)...)
        headings.removeSubrange(min(checkpoint.headingCount, headings.count)...)
        pronunciations.removeSubrange(min(checkpoint.pronunciationCount, pronunciations.count)...)
        let prefix = document + "#"
        anchors = anchors.filter { !$0.key.hasPrefix(prefix) }
        idBlocks = idBlocks.filter { !$0.key.hasPrefix(prefix) }
    }

    /// The clean blocks: links to notes dropped, whitespace folded, empty blocks and matter that is
    /// not the book left out (unless `includesMatter`), every position mapped to them.
    func finished(noteLinks: NoteLinkTracker, matter: MatterCapture, includesMatter: Bool) -> BlockCollector.Collected {
        var filter = MatterFilter(blocks: blocks, idBlocks: idBlocks, headingBlocks: Set(headings.map(\.rawIndex)))
        if !includesMatter {
            filter.findNotePairs(isNoteTarget: noteLinks.isNoteTarget)
            filter.findContentsLists(isNoteTarget: noteLinks.isNoteTarget)
            filter.findGutenbergMarkers()
        }
        var clean: [String] = []
        clean.reserveCapacity(blocks.count)
        var finalIndex = [Int](repeating: 0, count: blocks.count + 1)
        for (rawIndex, block) in blocks.enumerated() {
            finalIndex[rawIndex] = clean.count
            if filter.dropped.contains(rawIndex) { continue }
            let text = includesMatter ? block.text : noteLinks.removingNoteLinks(from: block, rawIndex: rawIndex, markers: filter.noteMarkers)
            // Unicode normalization (NFC) runs once per page, in `BookLayout`: far cheaper than per block.
            let folded = MarkupText.collapseWhitespace(text)
            // A block with no letter or digit ("* * *", stray "]>") has nothing to say.
            if MarkupText.hasLetterOrDigit(folded) {
                clean.append(folded)
            }
        }
        finalIndex[blocks.count] = clean.count
        func map(_ raw: Int) -> Int { finalIndex[min(max(raw, 0), blocks.count)] }
        var allSkipped = matter.skipped + filter.skipped
        let noteCount = matter.notes.count + filter.notes.count
        if noteCount > 0 {
            allSkipped.append(SkippedMatter(kind: .notes, title: "Notes", words: matter.notes.words + filter.notes.words))
        }
        return BlockCollector.Collected(
            blocks: clean,
            anchors: anchors.mapValues(map),
            pageMarkers: markers.map { (map($0.rawIndex), $0.label) },
            headings: headings.filter { !filter.dropped.contains($0.rawIndex) }.map { ($0.level, map($0.rawIndex), $0.text, $0.document) },
            documentTitles: documentTitles,
            documentRanges: documentRanges.mapValues { map($0.lowerBound)..<map($0.upperBound) },
            skipped: allSkipped,
            matterTargets: matter.targets.union(filter.droppedTargets(idBlocks: idBlocks))
        )
    }
}
