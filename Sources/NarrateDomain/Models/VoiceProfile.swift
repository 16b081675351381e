/// Everything that selects and shapes a voice: the eSpeak voice name and its parameters, or a
/// Piper neural voice (`piper`), whose eSpeak voice then phonemizes its text.
public struct VoiceProfile: Sendable, Hashable, Codable {
    /// The eSpeak voice name (`en-us`, `fr`, `en+f3`, …).
    public var voice: String
    /// Speaking rate in words per minute (80–450).
    public var rate: Int
    /// Base pitch (0–99).
    public var pitch: Int
    /// Volume / amplitude (0–200).
    public var volume: Int
    /// Extra pause between words, in units of 10 ms.
    public var wordGap: Int
    /// The pronunciation lexicons in force, the one to win first: the user's own (`--lexicon`,
    /// then the preset's), then the book's. Not part of the encoded form.
    public var lexicons: [PronunciationLexicon] = []
    /// The remote speech API a preset speaks through, if it names one (`--remote` overrides it).
    public var remote: RemoteVoice?
    /// The Piper voice that speaks, if it is one (`voice` is then the eSpeak voice of its
    /// language; pitch, volume and word gap do not apply, and `rate` scales its speed).
    public var piper: PiperVoiceSettings?

    private enum CodingKeys: String, CodingKey {
        case voice, rate, pitch, volume, wordGap, remote, piper
    }

    public static let rateRange = 80...450
    public static let pitchRange = 0...99
    public static let volumeRange = 0...200
    public static let wordGapRange = 0...1000

    public init(
        voice: String, rate: Int = 175, pitch: Int = 50, volume: Int = 100, wordGap: Int = 0, lexicons: [PronunciationLexicon] = [], remote: RemoteVoice? = nil,
        piper: PiperVoiceSettings? = nil
    ) {
        self.voice = voice
        self.piper = piper
        self.remote = remote
        self.lexicons = lexicons
        self.rate = rate
        self.pitch = pitch
        self.volume = volume
        self.wordGap = wordGap
    }

    /// The voice's name for a listener: a Piper voice's (its model's file name without
    /// `.onnx`), else the eSpeak voice.
    public var displayName: String {
        guard let piper else { return voice }
        let file = piper.model.split(separator: "/").last.map(String.init) ?? piper.model
        return file.hasSuffix(".onnx") ? String(file.dropLast(5)) : file
    }

    /// The profile used when the user names no voice: eSpeak's own defaults.
    public static let narrator = VoiceProfile(voice: "en-us")

    /// This profile reading `book`: the book's own lexicons in force after the user's. The one
    /// rule for merging lexicons (`speaking(_:reading:)` applies it too): a lexicon already in
    /// force is not added twice, so a profile that reads the book already is left as it is.
    public func reading(_ book: Book) -> VoiceProfile {
        var profile = self
        profile.lexicons += book.lexicons.filter { !lexicons.contains($0) }
        return profile
    }

    /// This profile with the user's own lexicons (`--lexicon`, an app's) in front of the
    /// voice's, then the book's: the order in which they win.
    public func speaking(_ userLexicons: [PronunciationLexicon], reading book: Book?) -> VoiceProfile {
        var profile = self
        profile.lexicons = userLexicons + lexicons.filter { !userLexicons.contains($0) }
        return book.map { profile.reading($0) } ?? profile
    }

    /// Checks every parameter against its range.
    /// - Throws: `SpeechError.parameterOutOfRange` naming the first bad parameter.
    public func validated() throws(SpeechError) -> VoiceProfile {
        let checks: [(String, Int, ClosedRange<Int>)] = [
            ("rate", rate, Self.rateRange),
            ("pitch", pitch, Self.pitchRange),
            ("volume", volume, Self.volumeRange),
            ("word gap", wordGap, Self.wordGapRange),
        ]
        for (name, value, range) in checks where !range.contains(value) {
            throw .parameterOutOfRange(name: name, value: value, range: range)
        }
        if let piper {
            if let speaker = piper.speaker, !PiperVoiceSettings.speakerRange.contains(speaker) {
                throw .parameterOutOfRange(name: "speaker", value: speaker, range: PiperVoiceSettings.speakerRange)
            }
            let scales: [(String, Double?, ClosedRange<Double>)] = [
                ("noise scale", piper.noiseScale, PiperVoiceSettings.scaleRange), ("length scale", piper.lengthScale, PiperVoiceSettings.scaleRange),
                ("noise width", piper.noiseW, PiperVoiceSettings.scaleRange), ("sentence silence", piper.sentenceSilence, PiperVoiceSettings.silenceRange),
            ]
            for (name, value, range) in scales {
                if let value, !(range.contains(value)) {
                    throw .parameterOutOfRange(name: name, value: Int(value.rounded()), range: Int(range.lowerBound)...Int(range.upperBound))
                }
            }
        }
        return self
    }
}
