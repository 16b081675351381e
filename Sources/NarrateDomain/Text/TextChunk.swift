/// A piece of a text small enough for one synthesis call, with where it came from.
public struct TextChunk: Sendable, Hashable {
    /// The chunk's text: an exact substring of the text it was cut from, without surrounding whitespace.
    public var text: String
    /// Offset of the chunk's first Unicode scalar in the text it was cut from (0-based, in Unicode scalars).
    public var scalarOffset: Int

    /// Creates a chunk of `text` that starts `scalarOffset` Unicode scalars into its source.
    public init(text: String, scalarOffset: Int) {
        self.text = text
        self.scalarOffset = scalarOffset
    }
}
