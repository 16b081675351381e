extension BlockCollector {
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
}
