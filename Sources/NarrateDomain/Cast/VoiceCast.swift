/// Who reads a text: the narrator reads the narration, each character in the cast its own
/// quotations, and the dialogue voice every quotation no rule attributes (or whose speaker the
/// cast does not name). Voices are resolved profiles, lexicons in force.
public struct VoiceCast: Sendable, Hashable {
    public var narrator: VoiceProfile
    public var dialogue: VoiceProfile
    public var members: [CastMember]

    public init(narrator: VoiceProfile, dialogue: VoiceProfile, members: [CastMember] = []) {
        self.narrator = narrator
        self.dialogue = dialogue
        self.members = members
    }

    /// Every voice of the cast, the narrator's first, each once.
    public var voices: [VoiceProfile] {
        var seen = Set<VoiceProfile>()
        return ([narrator, dialogue] + members.map(\.voice)).filter { seen.insert($0).inserted }
    }

    /// The voice of `character`'s lines: the member one of whose names is the character's name
    /// or one of its aliases (case aside), the first such; the narrator's for the narrator of a
    /// first-person book the cast does not name; else nil.
    public func voice(for character: StoryCharacter) -> VoiceProfile? {
        let names = Set(([character.name] + character.aliases).map { $0.lowercased() })
        if let member = members.first(where: { member in member.names.contains { names.contains($0.lowercased()) } }) {
            return member.voice
        }
        return character == .narrator ? narrator : nil
    }

    /// The same cast with `transform` applied to every voice (the book's lexicons put in force).
    public func mapVoices(_ transform: (VoiceProfile) -> VoiceProfile) -> VoiceCast {
        VoiceCast(
            narrator: transform(narrator), dialogue: transform(dialogue),
            members: members.map { CastMember(names: $0.names, voice: transform($0.voice)) })
    }

    /// The cast in one line that changes with any of its voices or names: what a rendering of a
    /// page read by it is keyed by.
    public var signature: String {
        func describe(_ voice: VoiceProfile) -> String {
            "\(voice.displayName)/\(voice.voice)/\(voice.rate)/\(voice.pitch)/\(voice.volume)/\(voice.wordGap)/\(voice.lexicons.map(\.digest).joined(separator: ","))"
        }
        let members = members.map { $0.names.joined(separator: "|") + "=" + describe($0.voice) }
        return ([describe(narrator), describe(dialogue)] + members).joined(separator: ";")
    }

    /// The cast with every voice validated (`VoiceProfile.validated`).
    public func validated() throws(SpeechError) -> VoiceCast {
        var members: [CastMember] = []
        for member in self.members { members.append(CastMember(names: member.names, voice: try member.voice.validated())) }
        return VoiceCast(narrator: try narrator.validated(), dialogue: try dialogue.validated(), members: members)
    }
}
