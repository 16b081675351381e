import NarrateDomain

extension BlockCollector {
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
}
