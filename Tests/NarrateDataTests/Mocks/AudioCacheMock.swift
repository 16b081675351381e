import NarrateDomain
import Synchronization

@testable import NarrateData

/// An in-memory `AudioCacheContract`. Every operation fails until it is configured:
/// `lookupResult` answers keys that are not in `entries`, `storeResult` decides whether a
/// store succeeds (and, if it does, the entry is kept in `entries`).
final class AudioCacheMock: AudioCacheContract {
    static let notConfigured = CacheError.indexFailed(path: "AudioCacheMock", reason: "not configured")

    private struct State {
        var entries: [AudioCacheKey: SpeechAudio] = [:]
        var lookupResult: Result<SpeechAudio?, CacheError> = .failure(AudioCacheMock.notConfigured)
        var storeResult: Result<Void, CacheError> = .failure(AudioCacheMock.notConfigured)
        var statisticsResult: Result<CacheStatistics, CacheError> = .failure(AudioCacheMock.notConfigured)
        var pruneResult: Result<CachePruneResult, CacheError> = .failure(AudioCacheMock.notConfigured)
        var clearResult: Result<Void, CacheError> = .failure(AudioCacheMock.notConfigured)
        var flushResult: Result<Void, CacheError> = .failure(AudioCacheMock.notConfigured)
        var lookedUpKeys: [AudioCacheKey] = []
        var stored: [(key: AudioCacheKey, audio: SpeechAudio)] = []
        var statisticsCallCount = 0
        var pruneCallCount = 0
        var clearCallCount = 0
        var flushCallCount = 0
    }

    private let state = Mutex(State())

    // MARK: - Configuration

    /// Entries that lookups find (checked before `lookupResult`).
    var entries: [AudioCacheKey: SpeechAudio] {
        get { state.withLock { $0.entries } }
        set { state.withLock { $0.entries = newValue } }
    }

    /// The answer for a key not in `entries`: `.success(nil)` for a miss.
    var lookupResult: Result<SpeechAudio?, CacheError> {
        get { state.withLock { $0.lookupResult } }
        set { state.withLock { $0.lookupResult = newValue } }
    }

    var storeResult: Result<Void, CacheError> {
        get { state.withLock { $0.storeResult } }
        set { state.withLock { $0.storeResult = newValue } }
    }

    var statisticsResult: Result<CacheStatistics, CacheError> {
        get { state.withLock { $0.statisticsResult } }
        set { state.withLock { $0.statisticsResult = newValue } }
    }

    var pruneResult: Result<CachePruneResult, CacheError> {
        get { state.withLock { $0.pruneResult } }
        set { state.withLock { $0.pruneResult = newValue } }
    }

    var clearResult: Result<Void, CacheError> {
        get { state.withLock { $0.clearResult } }
        set { state.withLock { $0.clearResult = newValue } }
    }

    var flushResult: Result<Void, CacheError> {
        get { state.withLock { $0.flushResult } }
        set { state.withLock { $0.flushResult = newValue } }
    }

    // MARK: - Call tracking

    var lookupCallCount: Int { state.withLock { $0.lookedUpKeys.count } }
    var lastLookedUpKey: AudioCacheKey? { state.withLock { $0.lookedUpKeys.last } }
    /// Every store attempt, successful or not, in call order.
    var storeCallCount: Int { state.withLock { $0.stored.count } }
    /// Every store, in call order.
    var storedKeys: [AudioCacheKey] { state.withLock { $0.stored.map(\.key) } }
    var lastStoredKey: AudioCacheKey? { state.withLock { $0.stored.last?.key } }
    var lastStoredAudio: SpeechAudio? { state.withLock { $0.stored.last?.audio } }
    var statisticsCallCount: Int { state.withLock { $0.statisticsCallCount } }
    var pruneCallCount: Int { state.withLock { $0.pruneCallCount } }
    var clearCallCount: Int { state.withLock { $0.clearCallCount } }
    var flushCallCount: Int { state.withLock { $0.flushCallCount } }

    // MARK: - AudioCacheContract

    func lookup(key: AudioCacheKey) async throws(CacheError) -> SpeechAudio? {
        try state.withLock { state throws(CacheError) in
            state.lookedUpKeys.append(key)
            if let entry = state.entries[key] { return entry }
            return try state.lookupResult.get()
        }
    }

    func containsEntry(key: AudioCacheKey) async -> Bool {
        state.withLock { $0.entries[key] != nil }
    }

    func store(_ audio: SpeechAudio, key: AudioCacheKey) async throws(CacheError) {
        try state.withLock { state throws(CacheError) in
            state.stored.append((key, audio))
            try state.storeResult.get()
            state.entries[key] = audio
        }
    }

    func statistics() async throws(CacheError) -> CacheStatistics {
        try state.withLock { state throws(CacheError) in
            state.statisticsCallCount += 1
            return try state.statisticsResult.get()
        }
    }

    func prune(maxBytes: Int64) async throws(CacheError) -> CachePruneResult {
        try state.withLock { state throws(CacheError) in
            state.pruneCallCount += 1
            return try state.pruneResult.get()
        }
    }

    func clear() async throws(CacheError) {
        try state.withLock { state throws(CacheError) in
            state.clearCallCount += 1
            try state.clearResult.get()
        }
    }

    func flush() async throws(CacheError) {
        try state.withLock { state throws(CacheError) in
            state.flushCallCount += 1
            try state.flushResult.get()
        }
    }
}
