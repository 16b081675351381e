/// A book's dialogue: its characters and each quoted part with its speaker.
public struct DialogueAnalysis: Sendable, Equatable {
    /// The characters, most speaking first; the narrator among them when the book says "I said".
    public let characters: [StoryCharacter]
    /// The quoted parts in reading order.
    public let parts: [QuotedPart]

    public init(characters: [StoryCharacter], parts: [QuotedPart]) {
        self.characters = characters
        self.parts = parts
    }

    /// How many quoted parts each character speaks, by index in `characters`.
    public var lineCounts: [Int] {
        var counts = Array(repeating: 0, count: characters.count)
        for part in parts { if let speaker = part.speaker { counts[speaker] += 1 } }
        return counts
    }

    /// The speaker's main name of `part`, or nil.
    public func speakerName(of part: QuotedPart) -> String? {
        part.speaker.map { characters[$0].name }
    }
}
