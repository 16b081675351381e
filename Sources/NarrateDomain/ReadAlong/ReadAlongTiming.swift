/// When each cue of one export item's audio is spoken: what a read-along EPUB's media overlays
/// are made from. The cues are those of the item's subtitles (`SubtitleCueBuilder`, from the same
/// word marks), so clips and subtitles change at the same samples.
public struct ReadAlongTiming: Sendable, Hashable, Codable {
    /// The audio's length in samples, and its rate.
    public var sampleCount: Int
    public var sampleRate: Int
    public var cues: [SubtitleCue]

    public init(sampleCount: Int, sampleRate: Int, cues: [SubtitleCue]) {
        self.sampleCount = sampleCount
        self.sampleRate = sampleRate
        self.cues = cues
    }
}
