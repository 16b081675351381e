import Foundation
import Logging
import NarrateDomain
import Synchronization

extension TieredAudioCache {
    // MARK: - Reading from the store

    /// What a store read gave: the audio, or only the entry kept locally.
    enum Fetched {
        case audio(SpeechAudio)
        case kept
    }

    /// The store's object for `key`, verified and written into the local tier as it came (an
    /// output then copies its PCM from there); with `wantsAudio`, its audio too. `nil` on a
    /// miss, a damaged object, or a store that is down (breaker open) or fails now.
    func fetch(_ key: AudioCacheKey, wantsAudio: Bool) async -> Fetched? {
        let now = ContinuousClock.now
        let ask = state.withLock { state in
            if let since = state.absent[key.hex], now - since < Self.absenceMemory { return false }
            return state.breaker.allows(at: now)
        }
        guard ask else { return nil }
        let start = ContinuousClock.now
        let object: StoreObject?
        do {
            object = try await store.get(hex: key.hex)
        } catch {
            recordFailure(error, operation: "reading")
            return nil
        }
        recordAnswer(operation: "get", since: start)
        guard let object else {
            count(.miss) { $0.misses += 1 }
            rememberAbsent(key)
            return nil
        }
        let bytes = object.bytes
        let checked: Result<(AudioCacheEntryCodec.Header, SpeechAudio?), AudioCacheEntryError> = bytes.withUnsafeBytes { raw in
            do throws(AudioCacheEntryError) {
                // With a fleet key, an object without its seal is not ours, whatever it holds.
                if let seal, !seal.verifies(object.seal, hex: key.hex, bytes: raw) { throw .unsealed }
                let header = try AudioCacheEntryCodec.verify(raw, key: key)
                return .success((header, wantsAudio ? try AudioCacheEntryCodec.audio(raw, header: header) : nil))
            } catch {
                return .failure(error)
            }
        }
        let header: AudioCacheEntryCodec.Header
        let audio: SpeechAudio?
        switch checked {
        case let .success(verified):
            (header, audio) = verified
        case let .failure(error):
            count(.corrupt) { $0.corrupt += 1 }
            state.withLock { _ = $0.damaged.insert(key.hex) }
            rememberAbsent(key)
            warnOnce("corrupt", "The cache store \(store.location) holds a damaged object (\(key.hex.prefix(12)): \(error.reason)); it is not used, its audio is made again and uploaded in its place.")
            return nil
        }
        count(.hit) { $0.hits += 1 }
        let kept: Result<Void, CacheError> = bytes.withUnsafeBytes { raw in
            Result { () throws(CacheError) in try local.storeEntryBytes(raw, key: key, header: header) }
        }
        if case let .failure(error) = kept {
            warnOnce("local", "Audio from the cache store could not be kept in the local cache (\(error)); it is used all the same.")
            // Not kept: a caller that only asked whether it exists reads it from the store again.
            if audio == nil, let decoded = try? AudioCacheEntryCodec.decode(bytes, key: key) { return .audio(decoded) }
        }
        return audio.map(Fetched.audio) ?? .kept
    }

    /// How long a key the store lacked is not asked for again.
    static let absenceMemory: Duration = .seconds(30)

    func rememberAbsent(_ key: AudioCacheKey) {
        let now = ContinuousClock.now
        state.withLock { state in
            if state.absent.count >= 100_000 { state.absent.removeAll(keepingCapacity: true) }
            state.absent[key.hex] = now
        }
    }
}
