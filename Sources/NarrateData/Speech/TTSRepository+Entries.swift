import Logging
import NarrateDomain

/// Misses stored by the engine itself: its child writes the cache entry, and this process only
/// checks the header and renames it into place, so the audio crosses no pipe.
extension TTSRepository {
    /// Makes sure the cache holds `request`'s audio without handing the samples over: a batch
    /// export synthesizes its chunks this way and then assembles its files from the entries.
    /// - Returns: the seconds of audio synthesized; 0 when the cache had it already.
    public func fill(_ request: SpeechRequest) async throws(SpeechError) -> Double {
        guard !request.text.isEmpty else { throw .emptyText }
        let primary = engineRequest(request)
        guard let cache else { return try await synthesize(request, cachePolicy: .localFirst).duration }
        let key = try await AudioCacheKey(request: primary, engine: synthesizer.descriptor(for: primary))
        if await cache.containsEntry(key: key) { return 0 }
        observer(.cacheMiss)
        logger.debug("cache miss \(key.hex.prefix(12)) (\(request.text.unicodeScalars.count) characters)")
        do {
            return try await synthesizeStoring(primary, key: key, in: cache, readBack: false).duration
        } catch {
            return try await fallBack(request, after: error, cache: cache).duration
        }
    }

    /// A miss the engine stored in the cache comes as a clip of its entry, not read back: an
    /// output copies it from the cache (`EntrySource`). A hit, or audio the engine could not
    /// store, comes as audio (a hit read and verified as ever).
    public func piece(_ request: SpeechRequest) async throws(SpeechError) -> SpeechPiece {
        guard !request.text.isEmpty else { throw .emptyText }
        // With a fallback engine every audio is brought to one rate in memory: no clips.
        guard fallback == nil, let cache else { return .audio(try await synthesize(request, cachePolicy: .localFirst)) }
        let primary = engineRequest(request)
        let key = try await AudioCacheKey(request: primary, engine: synthesizer.descriptor(for: primary))
        if let hit = await hit(key, for: request, in: cache) { return .audio(hit) }
        switch try await synthesizeStoring(primary, key: key, in: cache, readBack: false) {
        case let .audio(audio):
            return .audio(audio)
        case let .storedEntry(sampleRate, sampleCount, marks):
            return .clip(SpeechClip(cacheKey: key.hex, sampleRate: sampleRate, sampleCount: sampleCount, wordMarks: marks))
        }
    }

    /// Synthesizes `request` into the cache under `key`. The engine writes the entry itself
    /// where it can; otherwise (a cache that gives no draft, an engine that cannot, a request
    /// whose pronunciations rewrite its text) its audio is stored from memory, as it always was.
    /// - Parameter readBack: whether the audio is wanted in memory (read back from the entry,
    ///   verified); without it an entry the engine wrote comes back as `.storedEntry`.
    /// A cache that cannot store is no reason to fail: the audio is returned unstored.
    func synthesizeStoring(_ request: SpeechRequest, key: AudioCacheKey, in cache: any AudioCacheContract, readBack: Bool) async throws(SpeechError) -> SynthesisOutcome {
        guard writesEntries(request), let draft = cache.draftEntry(key: key) else {
            let audio = try await observedAudio(of: request)
            await store(audio, key: key, in: cache)
            return .audio(audio)
        }
        let outcome: SynthesisOutcome
        do {
            outcome = try await observedSynthesis(of: request, by: synthesizer, into: draft)
        } catch {
            cache.discardDraft(draft)  // a child killed mid-write may have left part of it
            throw error
        }
        switch outcome {
        case let .audio(audio):
            cache.discardDraft(draft)
            await store(audio, key: key, in: cache)
            return .audio(audio)
        case .storedEntry:
            do {
                if let audio = try await cache.adoptEntry(draft, readBack: readBack) { return .audio(audio) }
                return outcome
            } catch {
                reportStoreFailure(error)
                // What the engine wrote could not be taken: this text is spoken again, in memory,
                // and stored from there.
                let audio = try await observedAudio(of: request)
                await store(audio, key: key, in: cache)
                return .audio(audio)
            }
        }
    }

    private func observedAudio(of request: SpeechRequest) async throws(SpeechError) -> SpeechAudio {
        guard case let .audio(audio) = try await observedSynthesis(of: request, by: synthesizer, into: nil) else {
            throw .engineUnavailable(reason: "the engine answered no audio")
        }
        return audio
    }
}
