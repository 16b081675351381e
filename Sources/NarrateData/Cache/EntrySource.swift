import NarrateDomain

/// Where an entry's PCM lies in its file, for outputs assembled with in-kernel copies: the
/// bytes `pcmOffset..<pcmOffset + sampleCount * 2` of `path` are the samples, 16-bit
/// little-endian mono at `sampleRate`.
public struct EntrySource: Sendable, Equatable {
    public let path: String
    public let pcmOffset: Int
    public let sampleCount: Int
    public let sampleRate: Int
    public let wordMarks: [WordMark]

    public var duration: Double { sampleRate > 0 ? Double(sampleCount) / Double(sampleRate) : 0 }
}
