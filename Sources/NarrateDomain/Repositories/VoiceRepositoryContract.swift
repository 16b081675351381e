/// The voices a user can name: presets from `voices/` and the engine's own voices.
public protocol VoiceRepositoryContract: Sendable {
    /// Presets first, then engine voices, each group sorted by name.
    func voices() async throws(SpeechError) -> [Voice]

    /// The profile a name stands for: a preset first, then an installed neural voice, then an
    /// engine voice; under `.catalogOrFile`, also a model file by path.
    /// - Parameter naming: `.catalog`: the name is looked up among what the catalog lists and
    ///   no file is opened for it; `.catalogOrFile`: a path names a model file.
    /// - Throws: `SpeechError.voiceNotFound` with close names as suggestions.
    func profile(named name: String, naming: VoiceNaming) async throws(SpeechError) -> VoiceProfile
}

extension VoiceRepositoryContract {
    /// The profile a catalog name stands for (`VoiceNaming.catalog`).
    public func profile(named name: String) async throws(SpeechError) -> VoiceProfile {
        try await profile(named: name, naming: .catalog)
    }
}
