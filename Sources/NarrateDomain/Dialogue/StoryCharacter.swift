/// A character of a book: the name it is listed under, the other names the text gives it, and
/// its gender where a title or the pronouns show it.
public struct StoryCharacter: Sendable, Equatable {
    /// The name it is listed under (the one the text uses most).
    public let name: String
    /// Every name the text calls it by, the main one included, sorted.
    public let aliases: [String]
    /// Its gender, or unknown.
    public let gender: CharacterGender

    public init(name: String, aliases: [String], gender: CharacterGender) {
        self.name = name
        self.aliases = aliases
        self.gender = gender
    }

    /// The narrator of a first-person book, who speaks the quotations of "I said".
    public static let narrator = StoryCharacter(name: "narrator", aliases: ["narrator"], gender: .unknown)
}
