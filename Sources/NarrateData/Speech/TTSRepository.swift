import Logging
import NarrateDomain
import Synchronization

/// Speech through the content-addressed audio cache: the cache is asked first (or last, or
/// not at all) as the use case's policy says, the synthesizer only on a miss.
public final class TTSRepository: TTSRepositoryContract {
    private let synthesizer: any SpeechSynthesizerContract
    private let cache: (any AudioCacheContract)?
    private let logger: Logger
    /// Whether a failed store (a full or read-only disk) has been reported: once is enough.
    private let storeFailureReported = Mutex(false)

    /// - Parameters:
    ///   - synthesizer: the engine (eSpeak NG, or a remote API).
    ///   - cache: the audio cache; `nil` disables caching whatever the policy.
    ///   - logger: hits and misses are logged at `.debug`, which `--verbose` shows.
    public init(synthesizer: any SpeechSynthesizerContract, cache: (any AudioCacheContract)?, logger: Logger) {
        self.synthesizer = synthesizer
        self.cache = cache
        self.logger = logger
    }

    public func synthesize(_ request: SpeechRequest, cachePolicy: CachePolicy) async throws(SpeechError) -> SpeechAudio {
        guard !request.text.isEmpty else { throw .emptyText }
        guard let cache, cachePolicy != .noCache else {
            return try await synthesizer.synthesize(request)
        }
        let key = try await AudioCacheKey(request: request, engine: synthesizer.descriptor())
        switch cachePolicy {
        case .localFirst:
            if let hit = await lookup(key, in: cache) {
                logger.debug("cache hit \(key.hex.prefix(12)) (\(request.text.unicodeScalars.count) characters)")
                return hit
            }
            logger.debug("cache miss \(key.hex.prefix(12)) (\(request.text.unicodeScalars.count) characters)")
            let audio = try await synthesizer.synthesize(request)
            await store(audio, key: key, in: cache)
            return audio
        case .remoteFirst:
            let audio: SpeechAudio
            do {
                audio = try await synthesizer.synthesize(request)
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
            return try await synthesizer.synthesize(request)
        }
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
