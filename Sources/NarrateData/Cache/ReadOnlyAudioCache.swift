import NarrateDomain

/// An audio cache folder that cannot be written (a read-only mount, a shared copy): its entries
/// are served, verified as ever, and nothing is stored, pruned or counted as a hit. Its entry
/// files are read directly; its index, which SQLite could not update, is not used.
public final class ReadOnlyAudioCache: AudioCacheContract {
    private let directory: String
    private let layout: AudioCacheLayout
    /// Why the folder cannot be written, for the errors of what would write.
    private let reason: String

    /// - Throws: `CacheError.notWritable` when `directory` holds no cache to read.
    public init(directory: String, reason: String) throws(CacheError) {
        self.directory = directory
        layout = AudioCacheLayout(directory: directory)
        self.reason = reason
        guard AudioCacheEntryFile.status(layout.objects)?.isDirectory == true else {
            throw .notWritable(path: directory, reason: reason)
        }
    }

    public func lookup(key: AudioCacheKey) async throws(CacheError) -> SpeechAudio? {
        guard case let .entry(audio, _) = AudioCacheEntryFile.read(path: layout.entryPath(key), key: key) else {
            return nil  // missing, or damaged (it cannot be removed here): synthesized instead
        }
        return audio
    }

    public func containsEntry(key: AudioCacheKey) async -> Bool {
        AudioCacheEntryFile.status(layout.entryPath(key)).map { !$0.isDirectory } ?? false
    }

    /// Stores nothing: whoever opened it said so once already.
    public func store(_ audio: SpeechAudio, key: AudioCacheKey) async throws(CacheError) {}

    /// Counts the entry files (their audio estimated from their size: 16-bit samples).
    public func statistics() async throws(CacheError) -> CacheStatistics {
        var count = 0
        var bytes: Int64 = 0
        var duration = 0.0
        do throws(SystemCallError) {
            try layout.forEachObjectFile { name, path throws(SystemCallError) in
                guard name.utf8.count == 64, Hex.decode(name, byteCount: 32) != nil, let status = AudioCacheEntryFile.status(path), !status.isDirectory else { return }
                count += 1
                bytes += Int64(status.size)
                duration += Double(status.size) / 2 / Double(EngineWorkerSynthesizer.sampleRate)
            }
        } catch {
            throw .notWritable(path: error.path, reason: error.reason)
        }
        return CacheStatistics(entryCount: count, totalBytes: bytes, totalDuration: duration, totalHits: 0)
    }

    public func prune(maxBytes: Int64) async throws(CacheError) -> CachePruneResult {
        throw .notWritable(path: directory, reason: reason)
    }

    public func clear() async throws(CacheError) {
        throw .notWritable(path: directory, reason: reason)
    }

    public func flush() async throws(CacheError) {}
}
