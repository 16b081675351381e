/// A place where the text names a character.
struct CharacterMention: Sendable, Equatable {
    /// The index of the character named.
    let character: Int
    /// The first token of the name (its title, if any).
    let first: Int
    /// The last token of the name.
    let last: Int
}
