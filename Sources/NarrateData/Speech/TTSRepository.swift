import Logging
import NarrateDomain
import Synchronization

/// Speech through the content-addressed audio cache: the cache is asked first (or last, or
/// not at all) as the use case's policy says, the synthesizer only on a miss.
public final class TTSRepository: TTSRepositoryContract {
    private let synthesizer: any SpeechSynthesizerContract
    private let cache: (any AudioCacheContract)?
    private let logger: Logger
    private let observer: @Sendable (SynthesisEvent) -> Void
    /// Whether a failed store (a full or read-only disk) has been reported: once is enough.
    private let storeFailureReported = Mutex(false)
    /// The pronouncers made so far, by voice and lexicon digest: each converts its lexicons
    /// once, and reports what it cannot convert once.
    private let pronouncers = Mutex<[String: Pronouncer]>([:])

    /// - Parameters:
    ///   - synthesizer: the engine (eSpeak NG, or a remote API).
    ///   - cache: the audio cache; `nil` disables caching whatever the policy.
    ///   - logger: hits and misses are logged at `.debug`, which `--verbose` shows.
    public func flush() async {
        do {
            try await cache?.flush()
        } catch {
            logger.warning("The audio cache index could not be written now; the next run brings it up to date", metadata: ["error": "\(error)"])
        }
    }

    /// - Parameter observer: told of every cache hit, miss and synthesis (for metrics); it must
    ///   return quickly.
    public init(synthesizer: any SpeechSynthesizerContract, cache: (any AudioCacheContract)?, logger: Logger, observer: @escaping @Sendable (SynthesisEvent) -> Void = { _ in }) {
        self.synthesizer = synthesizer
        self.cache = cache
        self.logger = logger
        self.observer = observer
    }

    public func synthesize(_ request: SpeechRequest, cachePolicy: CachePolicy) async throws(SpeechError) -> SpeechAudio {
        guard !request.text.isEmpty else { throw .emptyText }
        guard let cache, cachePolicy != .noCache else {
            return try await pronouncedSynthesis(of: request)
        }
        let key = try await AudioCacheKey(request: request, engine: synthesizer.descriptor())
        switch cachePolicy {
        case .localFirst:
            if let hit = await lookup(key, in: cache) {
                logger.debug("cache hit \(key.hex.prefix(12)) (\(request.text.unicodeScalars.count) characters)")
                observer(.cacheHit(bytes: hit.samples.count * 2))
                return hit
            }
            observer(.cacheMiss)
            logger.debug("cache miss \(key.hex.prefix(12)) (\(request.text.unicodeScalars.count) characters)")
            let audio = try await pronouncedSynthesis(of: request)
            await store(audio, key: key, in: cache)
            return audio
        case .remoteFirst:
            let audio: SpeechAudio
            do {
                audio = try await pronouncedSynthesis(of: request)
            } catch {
                if let cached = await lookup(key, in: cache) {
                    logger.warning("synthesis failed (\(error)); using the cached audio \(key.hex.prefix(12))")
                    return cached
                }
                throw error
            }
            logger.debug("cache refresh \(key.hex.prefix(12))")
            await store(audio, key: key, in: cache)
            return audio
        case .noCache:
            return try await pronouncedSynthesis(of: request)
        }
    }

    /// Synthesizes `request` with the pronunciations in force for its voice written in as
    /// eSpeak phoneme spans, and its word marks moved back onto the request's own text.
    /// SSML goes to the engine as it is: its text is markup, not words to replace.
    private func pronouncedSynthesis(of request: SpeechRequest) async throws(SpeechError) -> SpeechAudio {
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let audio = try await engineSynthesis(of: request)
            observer(.synthesized(seconds: (clock.now - start).seconds, audioSeconds: audio.duration))
            return audio
        } catch {
            observer(.failed(error))
            throw error
        }
    }

    private func engineSynthesis(of request: SpeechRequest) async throws(SpeechError) -> SpeechAudio {
        guard !request.isSSML, !request.voice.lexicons.isEmpty else {
            return try await synthesizer.synthesize(request)
        }
        let pronouncer = pronouncer(for: request.voice)
        guard pronouncer.usesPhonemes else { return try await synthesizer.synthesize(request) }
        let pronounced = pronouncer.apply(request.text)
        var voice = request.voice
        voice.lexicons = []
        var audio = try await synthesizer.synthesize(SpeechRequest(text: pronounced.text, voice: voice, phonemeInput: true))
        audio.wordMarks = audio.wordMarks.map(pronounced.originalMark)
        return audio
    }

    private func pronouncer(for voice: VoiceProfile) -> Pronouncer {
        let name = voice.voice + "\n" + SpeechRequest(text: "", voice: voice).lexiconDigest
        if let known = pronouncers.withLock({ $0[name] }) { return known }
        let made = Pronouncer(lexicons: voice.lexicons, voice: voice.voice)
        let first = pronouncers.withLock { pronouncers in
            defer { pronouncers[name] = made }
            return pronouncers[name] == nil
        }
        if first {
            for warning in made.warnings { logger.warning("\(warning)") }
        }
        return made
    }

    public func cacheKey(for request: SpeechRequest) async throws(SpeechError) -> String {
        try await AudioCacheKey(request: request, engine: synthesizer.descriptor()).hex
    }

    /// A cache that cannot be read is not a reason to stop narrating: log it and synthesize.
    private func lookup(_ key: AudioCacheKey, in cache: any AudioCacheContract) async -> SpeechAudio? {
        do {
            return try await cache.lookup(key: key)
        } catch {
            logger.warning("audio cache lookup failed: \(error)")
            return nil
        }
    }

    /// A cache that cannot be written (a full disk, a read-only folder) is not a reason to stop
    /// narrating either: the audio is in hand. Warn once and carry on without storing.
    private func store(_ audio: SpeechAudio, key: AudioCacheKey, in cache: any AudioCacheContract) async {
        do {
            try await cache.store(audio, key: key)
        } catch {
            let first = storeFailureReported.withLock { reported in
                defer { reported = true }
                return !reported
            }
            if first {
                logger.warning("The audio cache could not store audio (\(error)); going on without storing. Free space or fix the cache folder to cache again.")
            }
        }
    }
}
