import Synchronization

/// The entries one `AudioCache` wrote or adopted in this process, with their headers: their
/// content was checked as it was written, so an output may copy their PCM without reading it
/// back. The file's identity is kept too, so an entry replaced since (another process stored
/// the key again, or removed it) is not taken for it.
final class FreshEntries: Sendable {
    struct Entry: Sendable {
        var header: AudioCacheEntryCodec.Header
        var identity: AudioCacheEntryFile.FileIdentity
    }

    /// More than any book's chunks; past it the record starts over (those entries are then
    /// read and verified like any other).
    static let capacity = 500_000
    private let entries = Mutex<[AudioCacheKey: Entry]>([:])

    /// Records the entry just renamed to `path`.
    func record(_ key: AudioCacheKey, path: String, header: AudioCacheEntryCodec.Header) {
        guard let status = AudioCacheEntryFile.status(path) else { return }
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll() }
            entries[key] = Entry(header: header, identity: status.identity)
        }
    }

    /// The entry recorded under `key`, if it is still the file at `path`.
    func entry(_ key: AudioCacheKey, path: String) -> AudioCacheEntryCodec.Header? {
        guard let entry = entries.withLock({ $0[key] }) else { return nil }
        guard let status = AudioCacheEntryFile.status(path), status.identity == entry.identity,
              status.size == entry.header.entryByteCount
        else {
            _ = entries.withLock { $0.removeValue(forKey: key) }
            return nil
        }
        return entry.header
    }

    func forget(_ key: AudioCacheKey) {
        _ = entries.withLock { $0.removeValue(forKey: key) }
    }
}
