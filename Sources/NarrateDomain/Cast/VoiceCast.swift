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

    /// The cast with every voice validated (`VoiceProfile.validated`).
    public func validated() throws(SpeechError) -> VoiceCast {
        var members: [CastMember] = []
        for member in self.members { members.append(CastMember(names: member.names, voice: try member.voice.validated())) }
        return VoiceCast(narrator: try narrator.validated(), dialogue: try dialogue.validated(), members: members)
    }
}
