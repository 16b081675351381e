import NarrateDomain

/// The JSON form of a preset in `voices/` (see `voices/README.md`).
struct VoicePresetFile: Codable, Sendable {
    var name: String
    var voice: String
    var rate: Int?
    var pitch: Int?
    var volume: Int?
    var wordGap: Int?
    var language: String?
    var description: String?

    var profile: VoiceProfile {
        let defaults = VoiceProfile(voice: voice)
        return VoiceProfile(
            voice: voice,
            rate: rate ?? defaults.rate,
            pitch: pitch ?? defaults.pitch,
            volume: volume ?? defaults.volume,
            wordGap: wordGap ?? defaults.wordGap
        )
    }
}
