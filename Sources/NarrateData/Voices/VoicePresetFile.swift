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
    /// A Piper voice the preset speaks with: `model` is an installed voice's name or a path to
    /// its `.onnx` (relative to the preset's folder, or absolute), with the speaker and scales.
    var piper: PiperVoiceSettings?
    /// A Kokoro voice or blend the preset speaks with (`af_heart`, `af_heart:0.6+bf_emma:0.4`);
    /// `voice` is then ignored (the Kokoro voice's language phonemizes).
    var kokoro: String?

    /// The preset's profile; its lexicons are read from `directory`, the preset file's folder.
    func profile(directory: String, piperVoices: PiperVoiceCatalog, kokoroVoices: KokoroVoiceCatalog) -> VoiceProfile {
        let defaults = VoiceProfile(voice: voice)
        var piper = self.piper
        if let named = piper?.model, !named.hasSuffix(".onnx") {
            // An installed voice's name: its model, wherever it is installed.
            if let model = (try? piperVoices.profile(named: named))??.piper?.model { piper?.model = model }
        } else if let path = piper?.model, !path.hasPrefix("/") {
            piper?.model = directory + "/" + path
        }
        var kokoroSettings: KokoroVoiceSettings?
        var espeakVoice = voice
        if let kokoro {
            if let profile = (try? kokoroVoices.profile(named: kokoro)) ?? nil, let settings = profile.kokoro {
                kokoroSettings = settings
                espeakVoice = profile.voice
            } else {
                // Not installed (or not a Kokoro voice): speaking says so, rather than another voice.
                let language = KokoroLanguage.of(voice: kokoro)?.espeakLanguage ?? voice
                kokoroSettings = KokoroVoiceSettings(model: "", styles: [.init(name: kokoro, pack: "", weight: 1)], language: language)
            }
        }
        return VoiceProfile(
            voice: espeakVoice,
            rate: rate ?? defaults.rate,
            pitch: pitch ?? defaults.pitch,
            volume: volume ?? defaults.volume,
            wordGap: wordGap ?? defaults.wordGap,
            lexicons: (lexicons ?? []).prefix(PronunciationLexicon.maxLexicons).map { path in
                LexiconFileReader.readOrReport(path.hasPrefix("/") ? path : directory + "/" + path)
            },
            remote: remote,
            piper: kokoroSettings == nil ? piper : nil,
            kokoro: kokoroSettings
        )
    }
}
