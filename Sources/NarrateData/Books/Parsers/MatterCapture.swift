import NarrateDomain

/// Lists the matter left out of the reading (a licence, a contents list, notes…) as the collector
/// reads through it: its kind, its title (its first heading, else its opening words) and its words.
struct MatterCapture {
    /// Skipped matter being read through.
    private struct Open {
        var kind: SkippedMatter.Kind
        var heading: String?
        /// The text of its first heading while that heading is being read.
        var headingText: String?
        var text = ""
    }

    /// Where the capture stands, to undo a document that has to be read again.
    struct Checkpoint {
        fileprivate var skippedCount: Int
        fileprivate var notes: (count: Int, words: Int)
    }

    private var open: Open?
    /// What was left out, in reading order; notes are only counted.
    private(set) var skipped: [SkippedMatter] = []
    /// How many notes were left out, and their words.
    private(set) var notes = (count: 0, words: 0)
    /// `document#id` keys inside skipped matter.
    private(set) var targets: Set<String> = []

    /// Whether skipped matter is being read through.
    var isCapturing: Bool { open != nil }

    /// Starts a document: matter left open by the one before ends unlisted.
    mutating func beginDocument() {
        open = nil
    }

    /// Notes an element id inside skipped matter, or on an element that begins it (`isMatter`).
    mutating func register(_ key: String, isMatter: Bool) {
        if open != nil || isMatter {
            targets.insert(key)
        }
    }

    /// Starts listing skipped matter of `kind`.
    mutating func begin(_ kind: SkippedMatter.Kind) {
        open = Open(kind: kind)
    }

    /// Takes the heading that starts at element `name` as the title of the matter being listed,
    /// when it is its first.
    /// - Returns: whether it did, so the element's end ends the title.
    mutating func beginsTitle(atElement name: String) -> Bool {
        guard open != nil, open?.heading == nil, open?.headingText == nil, MarkupText.headingLevel(name) != nil else { return false }
        open?.headingText = ""
        return true
    }

    /// The title being read ends.
    mutating func endTitle() {
        guard let text = open?.headingText else { return }
        let folded = MarkupText.collapseWhitespace(text)
        open?.heading = folded.isEmpty ? nil : folded
        open?.headingText = nil
    }

    /// The matter being listed ends: a note is counted, other matter with words is listed.
    mutating func end() {
        guard let finished = open else { return }
        open = nil
        let words = Paginator.wordCount(finished.text)
        if finished.kind == .notes {
            notes.count += 1
            notes.words += words
        } else if words > 0 {
            skipped.append(SkippedMatter(kind: finished.kind, title: finished.heading ?? MarkupText.opening(of: finished.text), words: words))
        }
    }

    /// Text inside skipped markup: the matter being listed (and its title) reads it.
    mutating func append(_ text: String) {
        guard open != nil else { return }
        open?.text += text
        if open?.headingText != nil { open?.headingText? += text }
    }

    func checkpoint() -> Checkpoint {
        Checkpoint(skippedCount: skipped.count, notes: notes)
    }

    /// Forgets what was listed since `checkpoint` and the targets in `document`.
    mutating func rollback(to checkpoint: Checkpoint, document: String) {
        skipped.removeSubrange(min(checkpoint.skippedCount, skipped.count)...)
        notes = checkpoint.notes
        let prefix = document + "#"
        targets = targets.filter { !$0.hasPrefix(prefix) }
    }
}
