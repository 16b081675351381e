extension BlockCollector {
    /// An element the collector is inside, and what its end must finish.
    struct OpenElement {
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
}
