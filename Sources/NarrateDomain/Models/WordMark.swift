/// Where a spoken word sits in the text and in the audio.
///
/// Text positions count Unicode scalars (not bytes, not grapheme clusters) from the start of
/// the text the audio was made from, 0-based; `sampleOffset` counts samples from the start of
/// the audio.
public struct WordMark: Sendable, Hashable, Codable {
    public var textOffset: Int
    public var textLength: Int
    public var sampleOffset: Int

    public init(textOffset: Int, textLength: Int, sampleOffset: Int) {
        self.textOffset = textOffset
        self.textLength = textLength
        self.sampleOffset = sampleOffset
    }

    /// The same mark moved by a text and a sample offset (used when audio is concatenated).
    public func shifted(text: Int, samples: Int) -> WordMark {
        WordMark(textOffset: textOffset + text, textLength: textLength, sampleOffset: sampleOffset + samples)
    }
}
