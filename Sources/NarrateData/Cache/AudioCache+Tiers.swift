import Foundation
import NarrateDomain

/// What the cache store tier needs of the local tier: an entry's file as it is (to upload),
/// and the keys of every entry (to push them all).
extension AudioCache {
    /// The bytes of `key`'s entry file, unverified (the store's reader verifies them); `nil`
    /// when there is none (pruned meanwhile).
    func entryBytes(key: AudioCacheKey) -> [UInt8]? {
        FileManager.default.contents(atPath: layout.entryPath(key)).map { Array($0) }
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
