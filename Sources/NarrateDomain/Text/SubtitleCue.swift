/// One subtitle: a sentence (or a piece of a long one) and when it is spoken.
///
/// Times are in seconds from the start of the audio; `end` is where the next cue starts, so cues
/// follow each other without gaps or overlaps.
public struct SubtitleCue: Sendable, Hashable, Codable {
    /// One spoken word of a cue and when it is spoken (`end` is where the next word starts).
    public struct Word: Sendable, Hashable, Codable {
        public var start: Double
        public var end: Double
        public var text: String

        public init(start: Double, end: Double, text: String) {
            self.start = start
            self.end = end
            self.text = text
        }
    }

    /// Seconds from the start of the audio.
    public var start: Double
    /// Seconds from the start of the audio; never before `start`.
    public var end: Double
    /// The sentence, whitespace folded to single spaces.
    public var text: String
    /// The words of `text` in the order they are spoken.
    public var words: [Word]

    public init(start: Double, end: Double, text: String, words: [Word] = []) {
        self.start = start
        self.end = end
        self.text = text
        self.words = words
    }

    /// Length in seconds.
    public var duration: Double { end - start }
}
