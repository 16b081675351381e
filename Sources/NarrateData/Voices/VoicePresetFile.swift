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
    /// PLS lexicon files, relative to the preset's folder (or absolute), the first to win first.
    var lexicons: [String]?
    /// A remote speech API the preset speaks through (`url`, `model`, `voice`; never a key).
    var remote: RemoteVoice?

    /// The preset's profile; its lexicons are read from `directory`, the preset file's folder.
    func profile(directory: String) -> VoiceProfile {
        let defaults = VoiceProfile(voice: voice)
        return VoiceProfile(
            voice: voice,
            rate: rate ?? defaults.rate,
            pitch: pitch ?? defaults.pitch,
            volume: volume ?? defaults.volume,
            wordGap: wordGap ?? defaults.wordGap,
            lexicons: (lexicons ?? []).prefix(PronunciationLexicon.maxLexicons).map { path in
                LexiconFileReader.readOrReport(path.hasPrefix("/") ? path : directory + "/" + path)
            },
            remote: remote
        )
    }
}
