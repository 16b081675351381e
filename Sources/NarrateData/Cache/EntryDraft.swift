/// A cache entry an engine writes itself: the new file at `path` (a temporary name in the
/// entry's shard folder, carrying this process's ID) is to hold the entry for `key`, in the
/// cache's entry format with its checksum. The cache then checks its header and renames it
/// into place (`AudioCacheContract.adoptEntry`), so the audio never passes through this process.
public struct EntryDraft: Sendable, Hashable {
    public let path: String
    public let key: AudioCacheKey

    public init(path: String, key: AudioCacheKey) {
        self.path = path
        self.key = key
    }
}
