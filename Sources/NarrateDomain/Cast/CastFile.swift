/// A cast as a user writes it, in JSON (`narrate cast BOOK -o cast.json` proposes one): the
/// narrator's voice, the voice of quotations no rule attributes (`dialogue`), and each
/// character's. Every voice is any name `--voice` takes, a blend included; a missing narrator or
/// dialogue voice is the one the command is given (`--voice`, or the book's language's).
public struct CastFile: Sendable, Hashable, Codable {
    public var narrator: String?
    public var dialogue: String?
    public var characters: [CastFileCharacter]

    /// How many characters a cast file may name, and how long a name or voice may be.
    public static let maxCharacters = 2_000
    public static let maxNameLength = 200

    public init(narrator: String? = nil, dialogue: String? = nil, characters: [CastFileCharacter] = []) {
        self.narrator = narrator
        self.dialogue = dialogue
        self.characters = characters
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        narrator = try container.decodeIfPresent(String.self, forKey: .narrator)
        dialogue = try container.decodeIfPresent(String.self, forKey: .dialogue)
        characters = try container.decodeIfPresent([CastFileCharacter].self, forKey: .characters) ?? []
    }

    /// What is wrong with the file, in one line, or nil: too many characters, a name or voice
    /// empty or too long, a character named twice.
    public var problem: String? {
        if characters.count > Self.maxCharacters { return "it names \(characters.count) characters, more than \(Self.maxCharacters)" }
        var seen = Set<String>()
        for voice in [narrator, dialogue].compactMap({ $0 }) + characters.map(\.voice) where voice.isEmpty || voice.count > Self.maxNameLength {
            return "a voice name is empty or longer than \(Self.maxNameLength) characters (\(String(voice.prefix(40))))"
        }
        for character in characters {
            let names = [character.name] + (character.aliases ?? [])
            if let bad = names.first(where: { $0.isEmpty || $0.count > Self.maxNameLength }) {
                return "a character's name is empty or longer than \(Self.maxNameLength) characters (\(String(bad.prefix(40))))"
            }
            if !seen.insert(character.name.lowercased()).inserted { return "the character '\(character.name)' is named twice" }
        }
        return nil
    }
}

/// One character of a cast file: its name, the voice it speaks in, and (as `narrate cast`
/// writes them, for the reader of the file) its other names, gender and number of lines.
public struct CastFileCharacter: Sendable, Hashable, Codable {
    public var name: String
    public var voice: String
    public var aliases: [String]?
    public var gender: String?
    public var lines: Int?

    public init(name: String, voice: String, aliases: [String]? = nil, gender: String? = nil, lines: Int? = nil) {
        self.name = name
        self.voice = voice
        self.aliases = aliases
        self.gender = gender
        self.lines = lines
    }
}
