/// Where each part of an audio cache folder lives, so that the cache, its read-only twin and the
/// service name them one way.
///
/// - `objects/ab/abcdef…`: one entry file per key (64 hex characters, `ab` its first two);
/// - `index.sqlite`: the index of the entries;
/// - `responses/`: the service's rendered page files (`narrate serve`), derived from the entries.
public struct AudioCacheLayout: Sendable, Hashable {
    /// The cache folder.
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    /// The folder of the entries' shard folders.
    var objects: String { directory + "/objects" }

    /// The SQLite index.
    var index: String { directory + "/index.sqlite" }

    /// The folder of the service's rendered page files, which go with the entries they are made of.
    public var responses: String { directory + "/responses" }

    /// `<objects>/ab`: the shard folder of `key`'s entry.
    func shardPath(_ key: AudioCacheKey) -> String {
        "\(objects)/\(key.hex.prefix(2))"
    }

    /// `<objects>/ab/abcdef…`: where `key`'s entry lives.
    func entryPath(_ key: AudioCacheKey) -> String {
        entryPath(hex: key.hex)
    }

    /// Where the entry whose key is `hex` (its file name) lives.
    func entryPath(hex: String) -> String {
        "\(objects)/\(hex.prefix(2))/\(hex)"
    }

    /// Calls `body` with the name and path of every file in every shard folder.
    func forEachObjectFile(_ body: (String, String) throws(SystemCallError) -> Void) throws(SystemCallError) {
        for shard in try AudioCacheEntryFile.names(in: objects) where shard.utf8.count == 2 {
            let shardPath = "\(objects)/\(shard)"
            guard AudioCacheEntryFile.status(shardPath)?.isDirectory == true else { continue }
            for name in try AudioCacheEntryFile.names(in: shardPath) {
                try body(name, "\(shardPath)/\(name)")
            }
        }
    }
}
