/// What a narration produced.
public struct SpeechSummary: Sendable, Equatable {
    public var chunkCount: Int
    public var sampleCount: Int
    public var sampleRate: Int

    public init(chunkCount: Int, sampleCount: Int, sampleRate: Int) {
        self.chunkCount = chunkCount
        self.sampleCount = sampleCount
        self.sampleRate = sampleRate
    }

    public var duration: Double { sampleRate > 0 ? Double(sampleCount) / Double(sampleRate) : 0 }
}
