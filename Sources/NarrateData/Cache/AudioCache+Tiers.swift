import Foundation
import NarrateDomain

/// What the cache store tier needs of the local tier: an entry's file as it is (to upload),
/// and the keys of every entry (to push them all).
extension AudioCache {
    /// `key`'s entry file as an upload's body (unverified: the store's reader verifies it);
    /// `nil` when there is none (pruned meanwhile).
    func entryBody(key: AudioCacheKey) -> ObjectBody? {
        let path = layout.entryPath(key)
        guard let status = AudioCacheEntryFile.status(path), !status.isDirectory else { return nil }
        return .file(path: path)
    }

    /// Stores an entry that arrived whole and was verified (`AudioCacheEntryCodec.verify`), as
    /// it is: written under a temporary name and renamed, recorded as fresh (an output copies
    /// its PCM without reading it back) and indexed.
    func storeEntryBytes(_ raw: UnsafeRawBufferPointer, key: AudioCacheKey, header: AudioCacheEntryCodec.Header) throws(CacheError) {
        let path = layout.entryPath(key)
        do throws(SystemCallError) {
            let shard = layout.shardPath(key)
            try Folder.make(shard)
            sweepOnce(shard)
            let file = try AtomicFile(destination: path)
            try file.write([raw])
            try file.commit(durable: false)
        } catch {
            throw .writeFailed(path: path, reason: error.reason)
        }
        fresh.record(key, path: path, header: header)
        if index.recordStore(key: key.hex, size: Int64(header.entryByteCount), duration: header.duration, at: now) {
            flushBestEffort()
        }
    }

    /// The keys of every entry file (temporary files left out).
    func entryKeys() throws(CacheError) -> [AudioCacheKey] {
        var keys: [AudioCacheKey] = []
        do throws(SystemCallError) {
            try layout.forEachObjectFile { name, _ in
                if let key = AudioCacheKey(hex: name) { keys.append(key) }
            }
        } catch {
            throw .notWritable(path: error.path, reason: error.reason)
        }
        return keys
    }
}
