/// A character of a resolved cast: the names it answers to and its voice.
public struct CastMember: Sendable, Hashable {
    /// Its name and aliases, as the cast file gives them.
    public var names: [String]
    public var voice: VoiceProfile

    public init(names: [String], voice: VoiceProfile) {
        self.names = names
        self.voice = voice
    }
}
