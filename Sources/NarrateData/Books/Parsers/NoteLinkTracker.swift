/// Which links lead to notes, and cutting those links out of the blocks they are in.
///
/// A note reference is not read aloud, but a link is known to be one only once its target is seen:
/// an element marked as a note (or one inside a note), or a document that holds notes and nothing
/// to read. A note usually comes after its reference, so the links wait in their blocks until the
/// whole book is read (`BlockCollector.finish()`).
struct NoteLinkTracker {
    /// How many notes the current element is inside.
    private(set) var depth = 0
    /// `document#id` keys of notes and of elements inside them.
    private var targets: Set<String> = []
    /// Documents that hold notes and no readable block: a link into one is a note reference.
    private var documents: Set<String> = []
    private var documentHadNotes = false

    /// Starts a document: no note is open in it.
    mutating func beginDocument() {
        depth = 0
        documentHadNotes = false
    }

    /// Ends `document`; `isEmpty` when it gave no block.
    mutating func endDocument(_ document: String, isEmpty: Bool) {
        if documentHadNotes, isEmpty {
            documents.insert(document)
        }
    }

    /// Notes an element id: a note's own (`isNote`), or one inside a note. `isSkipping` when the
    /// element is inside markup that is not read.
    mutating func register(_ key: String, isNote: Bool, isSkipping: Bool) {
        if isSkipping || isNote {
            if depth > 0 || isNote { targets.insert(key) }
        }
    }

    /// An element marked as a note starts.
    mutating func enterNote() {
        documentHadNotes = true
        depth += 1
    }

    /// An element marked as a note ends.
    mutating func leaveNote() {
        depth -= 1
    }

    /// Whether `target` (`document#id` or `document`) is a note.
    func isNoteTarget(_ target: String) -> Bool {
        if targets.contains(target) { return true }
        let document = EPUBPath.split(target).path
        return documents.contains(document)
    }

    /// The text of `block` (raw index `rawIndex`) without its links to notes and its note markers
    /// (`markers`, found by `MatterFilter`).
    func removingNoteLinks(from block: BlockCollector.RawBlock, rawIndex: Int, markers: Set<MatterFilter.LinkID>) -> String {
        guard !block.links.isEmpty else { return block.text }
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
