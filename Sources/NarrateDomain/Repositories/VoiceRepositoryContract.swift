/// The voices a user can name: presets from `voices/` and the engine's own voices.
public protocol VoiceRepositoryContract: Sendable {
    /// Presets first, then engine voices, each group sorted by name.
    func voices() async throws(SpeechError) -> [Voice]

    /// The profile a name stands for: a preset first, then an engine voice.
    /// - Throws: `SpeechError.voiceNotFound` with close names as suggestions.
    func profile(named name: String) async throws(SpeechError) -> VoiceProfile
}
