/// A voice a cast may give a character: its name (what `--voice` takes) and its gender.
public struct CastCandidate: Sendable, Hashable {
    public var name: String
    public var gender: CharacterGender

    public init(name: String, gender: CharacterGender) {
        self.name = name
        self.gender = gender
    }

    /// The voices that may speak beside `narrator` in one cast: of its engine and language (so
    /// of one sample rate), other than its own. eSpeak's: the narrator's language with each of
    /// eSpeak's female (`+f1`…`+f5`) and male (`+m1`…`+m7`) variants; Kokoro's and Piper's: the
    /// installed voices of the engine that speak the narrator's language (a Piper model of the
    /// narrator's sample rate). A remote voice has none.
    public static func candidates(beside narrator: VoiceProfile, named narratorName: String, installed: [Voice]) -> [CastCandidate] {
        if narrator.remote != nil { return [] }
        let language = narrator.voice.split(separator: "+").first.map(String.init) ?? narrator.voice
        if let kokoro = narrator.kokoro {
            return installed.filter { $0.kokoro != nil && $0.languages.contains(kokoro.language) && $0.name != narratorName && $0.preset?.kokoro?.model == kokoro.model }
                .map { CastCandidate(name: $0.name, gender: CharacterGender($0.gender)) }
        }
        if narrator.piper != nil {
            let rate = installed.first { $0.name == narratorName }?.piper?.sampleRate
            return installed.filter { voice in
                guard let info = voice.piper, voice.name != narratorName, info.speakers <= 1 else { return false }
                return voice.languages.contains(language) && (rate == nil || info.sampleRate == rate)
            }.map { CastCandidate(name: $0.name, gender: CharacterGender($0.gender)) }
        }
        let own: String = narrator.voice.split(separator: "+").dropFirst().first.map(String.init) ?? ""
        func variants(_ names: [String], _ gender: CharacterGender) -> [CastCandidate] {
            names.filter { $0 != own }.map { CastCandidate(name: language + "+" + $0, gender: gender) }
        }
        return variants(["f1", "f4"], .female) + variants((1...7).map { "m" + String($0) }, .male)
    }
}

extension CharacterGender {
    /// A voice's gender as a character's.
    init(_ gender: Voice.Gender) {
        switch gender {
        case .male: self = .male
        case .female: self = .female
        case .unspecified: self = .unknown
        }
    }
}
