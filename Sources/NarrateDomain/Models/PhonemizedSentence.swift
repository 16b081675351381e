/// How the engine reads one sentence (a Piper voice) or clause (eSpeak NG): its phonemes in
/// IPA and, for a Piper voice, the ids its model is given.
public struct PhonemizedSentence: Sendable, Hashable, Codable {
    /// Where it lies in the text, in Unicode scalars (eSpeak's clauses give their start only:
    /// `textLength` 0).
    public var textOffset: Int
    public var textLength: Int
    /// The text it reads (empty where the length is not known).
    public var text: String
    /// The phonemes, in IPA.
    public var phonemes: String
    /// A Piper voice's phoneme ids (beginning, pads and end included), or a Kokoro voice's token
    /// ids for one batch (the model is given them between two 0 pads); empty for eSpeak NG.
    public var ids: [Int]

    public init(textOffset: Int, textLength: Int, text: String = "", phonemes: String, ids: [Int] = []) {
        self.textOffset = textOffset
        self.textLength = textLength
        self.text = text
        self.phonemes = phonemes
        self.ids = ids
    }
}
