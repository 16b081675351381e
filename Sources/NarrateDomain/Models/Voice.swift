/// A voice the engine offers, an installed Piper voice, or a preset defined in `voices/`.
public struct Voice: Sendable, Hashable, Codable {
    public enum Gender: String, Sendable, Hashable, Codable { case unspecified, male, female }

    /// The name to pass to `--voice`.
    public var name: String
    /// The engine's identifier (its file below espeak-ng-data/voices), or the preset's eSpeak voice.
    public var identifier: String
    /// Language codes, most preferred first (`en-us`, `en`).
    public var languages: [String]
    public var gender: Gender
    /// Set for presets and Piper voices: the profile the name stands for.
    public var preset: VoiceProfile?
    /// Set for an installed Piper voice: its model, quality, speakers and rate.
    public var piper: PiperVoiceInfo?
    /// Set for an installed Kokoro voice: its model and style pack.
    public var kokoro: KokoroVoiceInfo?

    public init(
        name: String, identifier: String, languages: [String], gender: Gender = .unspecified, preset: VoiceProfile? = nil, piper: PiperVoiceInfo? = nil,
        kokoro: KokoroVoiceInfo? = nil
    ) {
        self.piper = piper
        self.kokoro = kokoro
        self.name = name
        self.identifier = identifier
        self.languages = languages
        self.gender = gender
        self.preset = preset
    }
}
