/// A Kokoro voice and how it speaks: the Kokoro-82M model, and the style packs it speaks with,
/// one for a plain voice (`af_heart`) or several for a blend (`af_heart:0.6+bf_emma:0.4`), each
/// with its share of the mix.
public struct KokoroVoiceSettings: Sendable, Hashable, Codable {
    /// One style pack in the mix.
    public struct Style: Sendable, Hashable, Codable {
        /// The voice's name (`af_heart`).
        public var name: String
        /// The pack's file: raw little-endian float32, rows of 256.
        public var pack: String
        /// Its share of the mix; the shares of a voice sum to 1.
        public var weight: Double

        public init(name: String, pack: String, weight: Double) {
            self.name = name
            self.pack = pack
            self.weight = weight
        }
    }

    /// The `.onnx` model file.
    public var model: String
    /// The packs mixed, in the order named.
    public var styles: [Style]
    /// eSpeak NG's language for the voice's text (the first voice's prefix names it).
    public var language: String

    public init(model: String, styles: [Style], language: String) {
        self.model = model
        self.styles = styles
        self.language = language
    }

    /// The voice's name: a plain voice's own, or the blend in its canonical form
    /// (`af_heart:0.6+bf_emma:0.4`, shares as they were normalized).
    public var name: String {
        KokoroBlend(parts: styles.map { KokoroBlend.Part(name: $0.name, weight: $0.weight) }).canonicalName
    }

    /// The speed `--rate` asks for, 175 words a minute being 1.0, within Kokoro's 0.5–2.0.
    public static func speed(rate: Int) -> Double {
        min(max(Double(rate) / 175, speedRange.lowerBound), speedRange.upperBound)
    }

    public static let speedRange = 0.5...2.0
    /// Seconds of silence kokoro-onnx adds after a batch that ends a sentence or a clause.
    public static let sentencePause = 0.25
    public static let clausePause = 0.1
}
