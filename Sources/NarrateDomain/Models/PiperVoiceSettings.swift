/// A Piper neural voice (a VITS model in ONNX form with its `.onnx.json` configuration) and
/// how it is to speak: the model, the speaker of a multi-speaker model, and the synthesis
/// scales, each left `nil` for the voice's own (its configuration's `inference` block).
public struct PiperVoiceSettings: Sendable, Hashable, Codable {
    /// The `.onnx` model file; its configuration is the file beside it with `.json` appended.
    public var model: String
    /// The speaker, for a model with several (`nil`: the model's first).
    public var speaker: Int?
    /// How much the voice varies (Piper's `noise_scale`).
    public var noiseScale: Double?
    /// How slowly it speaks (Piper's `length_scale`; `--rate` divides it, 175 words a minute
    /// being 1).
    public var lengthScale: Double?
    /// How much the phoneme lengths vary (Piper's `noise_w`).
    public var noiseW: Double?
    /// Seconds of silence after each sentence (Piper's `--sentence-silence`; 0 by default).
    public var sentenceSilence: Double?

    public init(model: String, speaker: Int? = nil, noiseScale: Double? = nil, lengthScale: Double? = nil, noiseW: Double? = nil, sentenceSilence: Double? = nil) {
        self.model = model
        self.speaker = speaker
        self.noiseScale = noiseScale
        self.lengthScale = lengthScale
        self.noiseW = noiseW
        self.sentenceSilence = sentenceSilence
    }

    /// The bounds each setting is checked against.
    public static let scaleRange = 0.0...10.0
    public static let speakerRange = 0...9_999
    public static let silenceRange = 0.0...10.0
}
