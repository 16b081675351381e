/// Turns one utterance into audio, through a cache whose use the caller's policy decides.
public protocol TTSRepositoryContract: Sendable {
    /// Audio for `request`.
    /// - Parameter cachePolicy: chosen by the use case (Get = `.localFirst`, Refresh = `.remoteFirst`).
    /// - Throws: `SpeechError` for engine, voice and cache failures.
    func synthesize(_ request: SpeechRequest, cachePolicy: CachePolicy) async throws(SpeechError) -> SpeechAudio

    /// `request`'s audio through the cache first, as `synthesize` with `.localFirst`; where the
    /// engine stored a miss in the cache itself, a clip of it instead of its samples.
    func piece(_ request: SpeechRequest) async throws(SpeechError) -> SpeechPiece

    /// Makes sure the cache holds `request`'s audio, synthesizing it on a miss, without handing
    /// the samples over (a batch export assembles its files from the cache afterwards).
    /// - Returns: the seconds of audio synthesized; 0 when the cache had it already.
    func fill(_ request: SpeechRequest) async throws(SpeechError) -> Double

    /// The cache key `request` is stored under (a lowercase hex SHA-256), for manifests and logs.
    func cacheKey(for request: SpeechRequest) async throws(SpeechError) -> String

    /// Writes what the cache keeps in memory (its index) to disk; a failure is logged, not
    /// thrown: the audio itself is stored already, and the next run indexes what is missing.
    func flush() async
}

extension TTSRepositoryContract {
    public func piece(_ request: SpeechRequest) async throws(SpeechError) -> SpeechPiece {
        .audio(try await synthesize(request, cachePolicy: .localFirst))
    }

    public func fill(_ request: SpeechRequest) async throws(SpeechError) -> Double {
        try await synthesize(request, cachePolicy: .localFirst).duration
    }
}
