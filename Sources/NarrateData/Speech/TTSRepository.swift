import Logging
import NarrateDomain
import Synchronization

/// Speech through the content-addressed audio cache: the cache is asked first (or last, or
/// not at all) as the use case's policy says, the synthesizer only on a miss.
public final class TTSRepository: TTSRepositoryContract {
    let synthesizer: any SpeechSynthesizerContract
    let cache: (any AudioCacheContract)?
    let logger: Logger
    let observer: @Sendable (SynthesisEvent) -> Void
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

    /// - Parameters:
    ///   - fallback: the engine that speaks what `synthesizer` (a remote API) cannot deliver
    ///     after its retries (`SpeechError.remoteUnavailable`); its audio is stored under its
    ///     own key, so a later run with the API up fills the API's entries.
    ///   - observer: told of every cache hit, miss and synthesis (for metrics); it must return quickly.
    ///   - now: the clock synthesis times and the pause after the API failed are measured on (a
    ///     test moves it by hand).
    public init(
        synthesizer: any SpeechSynthesizerContract, cache: (any AudioCacheContract)?, logger: Logger,
        fallback: (any SpeechSynthesizerContract)? = nil, observer: @escaping @Sendable (SynthesisEvent) -> Void = { _ in },
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.synthesizer = synthesizer
        self.cache = cache
        self.logger = logger
        self.fallback = fallback
        self.observer = observer
        self.now = now
    }

    private let now: @Sendable () -> ContinuousClock.Instant

    let fallback: (any SpeechSynthesizerContract)?
    /// With a fallback, audio of two engines may meet in one file: all of it is given at the rate
    /// of the first audio this repository returned.
    private let pinnedRate = Mutex<Int?>(nil)
    /// After the API failed a text, the next texts go to the fallback until then (no point in
    /// five more attempts per text while it is down).
    private let apiDownUntil = Mutex<ContinuousClock.Instant?>(nil)
    private let fallbackReported = Mutex(false)
    private let lexiconsReported = Mutex(false)
    static let apiDownPause: Duration = .seconds(30)

    public func synthesize(_ request: SpeechRequest, cachePolicy: CachePolicy) async throws(SpeechError) -> SpeechAudio {
        guard !request.text.isEmpty else { throw .emptyText }
        let primary = engineRequest(request)
        guard let cache, cachePolicy != .noCache else {
            do {
                return try await conformed(pronouncedSynthesis(of: primary, by: synthesizer))
            } catch {
                return try await fallBack(request, after: error, cache: nil)
            }
        }
        let key = try await AudioCacheKey(request: primary, engine: synthesizer.descriptor(for: primary))
        switch cachePolicy {
        case .localFirst:
            if let hit = await hit(key, for: request, in: cache) { return conformed(hit) }
            do throws(SpeechError) {
                guard case let .audio(audio) = try await synthesizeStoring(primary, key: key, in: cache, readBack: true) else {
                    throw .engineUnavailable(reason: "the stored audio could not be read back")
                }
                return conformed(audio)
            } catch {
                return try await fallBack(request, after: error, cache: cache)
            }
        case .remoteFirst:
            let audio: SpeechAudio
            do {
                audio = try await pronouncedSynthesis(of: primary, by: synthesizer)
            } catch {
                if let cached = await lookup(key, in: cache) {
                    logger.warning("synthesis failed (\(error)); using the cached audio \(key.hex.prefix(12))")
                    return conformed(cached)
                }
                return try await fallBack(request, after: error, cache: cache)
            }
            logger.debug("cache refresh \(key.hex.prefix(12))")
            await store(audio, key: key, in: cache)
            return conformed(audio)
        case .noCache:
            return try await conformed(pronouncedSynthesis(of: primary, by: synthesizer))
        }
    }

    /// The request as the engine takes it: an engine that reads no phonemes gets no lexicons
    /// (they could not be applied; said once), so they do not change its cache key either.
    func engineRequest(_ request: SpeechRequest) -> SpeechRequest {
        guard !synthesizer.acceptsPhonemes, !request.voice.lexicons.isEmpty else { return request }
        let first = Self.isFirst(lexiconsReported)
        if first { logger.warning("Pronunciation lexicons are not applied by the remote speech engine (it reads no eSpeak phonemes).") }
        var stripped = request
        stripped.voice.lexicons = []
        return stripped
    }

    /// What the fallback engine says for `request` when the API could not deliver it; `error`
    /// itself when there is no fallback or the failure is not the API's being unavailable.
    func fallBack(_ request: SpeechRequest, after error: SpeechError, cache: (any AudioCacheContract)?) async throws(SpeechError) -> SpeechAudio {
        guard let fallback, case let .remoteUnavailable(host, _, reason) = error else { throw error }
        let first = Self.isFirst(fallbackReported)
        if first {
            logger.warning("The speech API at \(host) could not deliver (\(reason.escapedExcerpt(limit: 500))); such text is spoken by eSpeak NG with voice \(request.voice.voice.escapedExcerpt(limit: 64)) instead. Run again with the API up to replace it.")
        }
        observer(.fellBack(text: request.text))
        let key = try await AudioCacheKey(request: request, engine: fallback.descriptor(for: request))
        if let cache, let hit = await lookup(key, in: cache) {
            return conformed(hit)
        }
        let audio = try await pronouncedSynthesis(of: request, by: fallback, isPrimary: false)
        if let cache { await store(audio, key: key, in: cache) }
        return conformed(audio)
    }

    /// With a fallback, every audio at the first one's rate; otherwise as it is.
    private func conformed(_ audio: SpeechAudio) -> SpeechAudio {
        guard fallback != nil else { return audio }
        let rate = pinnedRate.withLock { pinned in
            if pinned == nil { pinned = audio.sampleRate }
            return pinned ?? audio.sampleRate
        }
        return audio.resampled(to: rate)
    }

    /// Whether the API is taken to be down now (only with a fallback).
    private var apiIsDown: Bool {
        guard fallback != nil, let until = apiDownUntil.withLock({ $0 }) else { return false }
        return now() < until
    }

    /// Synthesizes `request` with the pronunciations in force for its voice written in as
    /// eSpeak phoneme spans, and its word marks moved back onto the request's own text.
    /// SSML goes to the engine as it is: its text is markup, not words to replace.
    private func pronouncedSynthesis(of request: SpeechRequest, by synthesizer: any SpeechSynthesizerContract, isPrimary: Bool = true) async throws(SpeechError) -> SpeechAudio {
        guard case let .audio(audio) = try await observedSynthesis(of: request, by: synthesizer, isPrimary: isPrimary, into: nil) else {
            throw .engineUnavailable(reason: "the engine answered no audio")
        }
        return audio
    }

    /// `pronouncedSynthesis`, or with a draft the engine's synthesis straight into that cache
    /// entry (only for a request whose text goes to the engine as it is: see `writesEntries`).
    func observedSynthesis(of request: SpeechRequest, by synthesizer: any SpeechSynthesizerContract, isPrimary: Bool = true, into draft: EntryDraft?) async throws(SpeechError) -> SynthesisOutcome {
        if isPrimary, apiIsDown {
            throw .remoteUnavailable(host: "the remote engine", attempts: 0, reason: "it failed moments ago; trying again in \(Int(Self.apiDownPause.seconds)) s")
        }
        let start = now()
        do {
            let outcome: SynthesisOutcome
            if let draft {
                outcome = try await synthesizer.synthesize(request, into: draft)
            } else {
                outcome = .audio(try await engineSynthesis(of: request, by: synthesizer))
            }
            observer(.synthesized(seconds: (now() - start).seconds, audioSeconds: outcome.duration))
            return outcome
        } catch {
            if isPrimary, fallback != nil, case .remoteUnavailable = error {
                let failedAt = now()
                apiDownUntil.withLock { $0 = failedAt + Self.apiDownPause }
            }
            observer(.failed(error))
            throw error
        }
    }

    /// Whether the engine may write `request`'s cache entry itself: not when the request's
    /// pronunciations rewrite its text, since the word marks are then moved back onto the
    /// request's own text in this process before they are stored.
    func writesEntries(_ request: SpeechRequest) -> Bool {
        request.isSSML || request.voice.lexicons.isEmpty || !synthesizer.acceptsPhonemes || !pronouncer(for: request.voice).usesPhonemes
    }

    private func engineSynthesis(of request: SpeechRequest, by synthesizer: any SpeechSynthesizerContract) async throws(SpeechError) -> SpeechAudio {
        guard !request.isSSML, !request.voice.lexicons.isEmpty, synthesizer.acceptsPhonemes else {
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

    /// Whether this is the first time `flag` is asked (for what is said once per repository).
    private static func isFirst(_ flag: borrowing Mutex<Bool>) -> Bool {
        flag.withLock { reported in
            defer { reported = true }
            return !reported
        }
    }

    func pronouncer(for voice: VoiceProfile) -> Pronouncer {
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
        try await AudioCacheKey(request: engineRequest(request), engine: synthesizer.descriptor(for: engineRequest(request))).hex
    }

    /// The verified entry under `key`, with the hit logged and observed; on a miss, the miss.
    func hit(_ key: AudioCacheKey, for request: SpeechRequest, in cache: any AudioCacheContract) async -> SpeechAudio? {
        let characters = request.text.unicodeScalars.count
        guard let hit = await lookup(key, in: cache) else {
            observer(.cacheMiss)
            logger.debug("cache miss \(key.hex.prefix(12)) (\(characters) characters)")
            return nil
        }
        logger.debug("cache hit \(key.hex.prefix(12)) (\(characters) characters)")
        observer(.cacheHit(bytes: hit.samples.count * 2, characters: characters))
        return hit
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
    func store(_ audio: SpeechAudio, key: AudioCacheKey, in cache: any AudioCacheContract) async {
        do {
            try await cache.store(audio, key: key)
        } catch {
            reportStoreFailure(error)
        }
    }

    func reportStoreFailure(_ error: CacheError) {
        let first = Self.isFirst(storeFailureReported)
        if first {
            logger.warning("The audio cache could not store audio (\(error)); going on without storing. Free space or fix the cache folder to cache again.")
        }
    }
}
