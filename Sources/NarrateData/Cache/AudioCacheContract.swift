import NarrateDomain

/// Result of pruning the cache to a byte budget.
public struct CachePruneResult: Sendable, Equatable {
    public var removedEntries: Int
    public var removedBytes: Int64

    public init(removedEntries: Int, removedBytes: Int64) {
        self.removedEntries = removedEntries
        self.removedBytes = removedBytes
    }
}

/// A content-addressed store of synthesized audio, shared safely by threads and processes.
public protocol AudioCacheContract: Sendable {
    /// The entry stored under `key`, verified; `nil` on a miss. A corrupt or truncated
    /// entry is removed and reported as a miss.
    func lookup(key: AudioCacheKey) async throws(CacheError) -> SpeechAudio?
    /// Whether an entry file exists under `key`, without reading or verifying it (a cheap
    /// check for planning work; `lookup` is the one that vouches for the content).
    func containsEntry(key: AudioCacheKey) async -> Bool
    /// `containsEntry` for each of `keys`, in order (a cache with a remote tier asks about
    /// several at once).
    func containsEntries(keys: [AudioCacheKey]) async -> [Bool]
    /// Stores `audio` under `key` atomically (temporary file, rename), replacing any entry.
    func store(_ audio: SpeechAudio, key: AudioCacheKey) async throws(CacheError)
    /// Entry count, bytes, audio duration and hits.
    func statistics() async throws(CacheError) -> CacheStatistics
    /// Removes least-recently-used entries until the cache holds at most `maxBytes`.
    func prune(maxBytes: Int64) async throws(CacheError) -> CachePruneResult
    /// Removes every entry.
    func clear() async throws(CacheError)
    /// Writes index updates that are still pending (hits, last-used times) to the index.
    func flush() async throws(CacheError)

    /// A new temporary name for `key`'s entry, for an engine to write the entry itself; `nil`
    /// when the cache cannot be written (the audio then comes back in memory and is stored).
    func draftEntry(key: AudioCacheKey) -> EntryDraft?
    /// Checks the header and size of the entry an engine wrote at `draft`'s path and renames it
    /// into place. With `readBack`, its audio is read and fully verified first, and returned.
    /// On a throw the draft is removed and nothing is stored.
    func adoptEntry(_ draft: EntryDraft, readBack: Bool) async throws(CacheError) -> SpeechAudio?
    /// Removes a draft that will not be adopted (the engine failed).
    func discardDraft(_ draft: EntryDraft)
    /// Where the PCM of an entry that this cache adopted (or stored) in this process lies, for an
    /// output assembled with in-kernel copies; `nil` for any other entry, which `lookup` reads
    /// and verifies as ever.
    func freshSource(key: AudioCacheKey) async -> EntrySource?
}

extension AudioCacheContract {
    public func containsEntries(keys: [AudioCacheKey]) async -> [Bool] {
        var found: [Bool] = []
        found.reserveCapacity(keys.count)
        for key in keys { found.append(await containsEntry(key: key)) }
        return found
    }

    public func draftEntry(key: AudioCacheKey) -> EntryDraft? { nil }
    public func adoptEntry(_ draft: EntryDraft, readBack: Bool) async throws(CacheError) -> SpeechAudio? {
        discardDraft(draft)
        throw .writeFailed(path: draft.path, reason: "this cache does not take entries written by the engine")
    }
    public func discardDraft(_ draft: EntryDraft) {}
    public func freshSource(key: AudioCacheKey) async -> EntrySource? { nil }
}
