import NarrateKit

/// OpenAI's voice names, each a distinct eSpeak voice. The presets of the same names in
/// `voices/` define them (and may be edited); these are the built-in fallbacks when no preset
/// file is found, so the names work from any installed binary.
enum OpenAIVoices {
    static let profiles: [String: VoiceProfile] = [
        "alloy": VoiceProfile(voice: "en-us"),
        "ash": VoiceProfile(voice: "en-us+m3", pitch: 40),
        "ballad": VoiceProfile(voice: "en-gb-x-rp+m5", rate: 165),
        "coral": VoiceProfile(voice: "en-us+f3"),
        "echo": VoiceProfile(voice: "en-us+m1", pitch: 35),
        "fable": VoiceProfile(voice: "en-gb+m2", rate: 170),
        "nova": VoiceProfile(voice: "en-us+f2", pitch: 60),
        "onyx": VoiceProfile(voice: "en-us+m7", pitch: 25),
        "sage": VoiceProfile(voice: "en-us+f4"),
        "shimmer": VoiceProfile(voice: "en-us+f5", pitch: 65),
        "verse": VoiceProfile(voice: "en-gb-scotland+m6"),
    ]

    static let names = profiles.keys.sorted()

    /// The models OpenAI's clients send; all speak the same way here.
    static let models = ["tts-1", "tts-1-hd", "gpt-4o-mini-tts", "narrate"]
}
