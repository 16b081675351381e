/// What a listing shows of an installed Piper voice.
public struct PiperVoiceInfo: Sendable, Hashable, Codable {
    /// The `.onnx` model file.
    public var model: String
    /// Piper's quality name: `x_low`, `low`, `medium` or `high`.
    public var quality: String?
    /// How many speakers the model has (1 for most).
    public var speakers: Int
    /// The speakers' names, by id, where the voice names them.
    public var speakerNames: [String]
    /// The audio's sample rate.
    public var sampleRate: Int

    public init(model: String, quality: String?, speakers: Int, speakerNames: [String] = [], sampleRate: Int) {
        self.model = model
        self.quality = quality
        self.speakers = speakers
        self.speakerNames = speakerNames
        self.sampleRate = sampleRate
    }
}
