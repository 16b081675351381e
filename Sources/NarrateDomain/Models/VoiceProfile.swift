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
    /// The Kokoro voice (or blend) that speaks, if it is one (`voice` is then the eSpeak
    /// language of its text; pitch, volume and word gap do not apply, and `rate` sets its
    /// speed, 175 words a minute being 1.0).
    public var kokoro: KokoroVoiceSettings?

    private enum CodingKeys: String, CodingKey {
        case voice, rate, pitch, volume, wordGap, remote, piper, kokoro
    }

    public static let rateRange = 80...450
    /// A Kokoro voice's: its speed runs from 0.5 to 2.0, 175 words a minute being 1.0.
    public static let kokoroRateRange = 88...350

    /// The rates this profile's voice can speak at.
    public var usableRateRange: ClosedRange<Int> { kokoro == nil ? Self.rateRange : Self.kokoroRateRange }
    public static let pitchRange = 0...99
    public static let volumeRange = 0...200
    public static let wordGapRange = 0...1000

    public init(
        voice: String, rate: Int = 175, pitch: Int = 50, volume: Int = 100, wordGap: Int = 0, lexicons: [PronunciationLexicon] = [], remote: RemoteVoice? = nil,
        piper: PiperVoiceSettings? = nil, kokoro: KokoroVoiceSettings? = nil
    ) {
        self.voice = voice
        self.piper = piper
        self.kokoro = kokoro
        self.remote = remote
        self.lexicons = lexicons
        self.rate = rate
        self.pitch = pitch
        self.volume = volume
        self.wordGap = wordGap
    }

    /// The voice's name for a listener: a Kokoro voice's or blend's, a Piper voice's (its
    /// model's file name without `.onnx`), else the eSpeak voice.
    public var displayName: String {
        if let kokoro { return kokoro.name }
        guard let piper else { return voice }
        let file = piper.model.split(separator: "/").last.map(String.init) ?? piper.model
        return file.hasSuffix(".onnx") ? String(file.dropLast(5)) : file
    }

    /// Whether a neural voice (Piper, Kokoro) speaks: its text is timed by sentence, and its
    /// first sentence is synthesized alone so that audio starts sooner.
    public var isNeural: Bool { piper != nil || kokoro != nil }

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
            ("rate", rate, usableRateRange),
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
