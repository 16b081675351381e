/// A chunk's audio as a repository hands it over: the samples in memory, or a clip of them kept
/// in the audio cache, which an output copies from the cache without this process reading it.
public enum SpeechPiece: Sendable, Equatable {
    case audio(SpeechAudio)
    case clip(SpeechClip)

    public var sampleRate: Int {
        switch self {
        case let .audio(audio): audio.sampleRate
        case let .clip(clip): clip.sampleRate
        }
    }

    public var sampleCount: Int {
        switch self {
        case let .audio(audio): audio.samples.count
        case let .clip(clip): clip.sampleCount
        }
    }

    public var wordMarks: [WordMark] {
        switch self {
        case let .audio(audio): audio.wordMarks
        case let .clip(clip): clip.wordMarks
        }
    }

    /// The same piece with its word marks moved `scalars` further into the text.
    func shifted(text scalars: Int) -> SpeechPiece {
        guard scalars != 0 else { return self }
        switch self {
        case var .audio(audio):
            audio.wordMarks = audio.wordMarks.map { $0.shifted(text: scalars, samples: 0) }
            return .audio(audio)
        case var .clip(clip):
            clip.wordMarks = clip.wordMarks.map { $0.shifted(text: scalars, samples: 0) }
            return .clip(clip)
        }
    }
}

/// Audio kept in the cache under `cacheKey` (a lowercase hex SHA-256), that this process
/// stored: its length and word marks, without its samples.
public struct SpeechClip: Sendable, Equatable {
    public var cacheKey: String
    public var sampleRate: Int
    public var sampleCount: Int
    public var wordMarks: [WordMark]

    public init(cacheKey: String, sampleRate: Int, sampleCount: Int, wordMarks: [WordMark]) {
        self.cacheKey = cacheKey
        self.sampleRate = sampleRate
        self.sampleCount = sampleCount
        self.wordMarks = wordMarks
    }

    public var duration: Double { sampleRate > 0 ? Double(sampleCount) / Double(sampleRate) : 0 }
}
