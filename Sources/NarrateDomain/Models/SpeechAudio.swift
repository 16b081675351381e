/// Synthesized speech in its canonical form: 16-bit mono PCM, its sample rate and word marks.
public struct SpeechAudio: Sendable, Equatable {
    public var sampleRate: Int
    public var samples: [Int16]
    public var wordMarks: [WordMark]

    public init(sampleRate: Int, samples: [Int16], wordMarks: [WordMark] = []) {
        self.sampleRate = sampleRate
        self.samples = samples
        self.wordMarks = wordMarks
    }

    /// Length in seconds.
    public var duration: Double {
        sampleRate > 0 ? Double(samples.count) / Double(sampleRate) : 0
    }
}
