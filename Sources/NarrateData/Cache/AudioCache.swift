#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Logging
import Synchronization
import NarrateDomain

/// The on-disk audio cache: one content-addressed file per entry plus a SQLite index.
///
/// Layout of `directory` (see `AudioCacheLayout`):
/// - `objects/ab/abcdef…` — one entry per key (64 hex characters, `ab` its first two), in the
///   format of `AudioCacheEntryCodec`; written by `AtomicFile` under a `TemporaryFileName` in the
///   same folder, then renamed,
///   so a reader never sees a partial entry (not fsynced: one torn by a power cut fails its
///   CRC-32C on read and is synthesized again).
/// - `index.sqlite` — size, duration, creation and last-use times and hits of each entry, for
///   statistics and LRU pruning. The files are the truth; `statistics()` and `prune(maxBytes:)`
///   reconcile the index with them.
///
/// Several instances, in one process or in many, may share a folder. Calls from concurrent tasks
/// are safe. The calls block on file and SQLite I/O.
public final class AudioCache: AudioCacheContract {
    /// The cache folder.
    public let directory: String
    /// Where the entries, the index and the service's rendered responses are in it.
    let layout: AudioCacheLayout
    let index: AudioCacheIndex
    private let clock: @Sendable () -> Date
    private let logger: Logger
    /// Shard folders this cache has stored into. The first store into each removes what dead
    /// writers left there (a process killed in the middle of a store), so a run that resumes
    /// after a kill leaves no temporary file behind.
    private let sweptShards = Mutex<Set<String>>([])
    /// Entries this cache wrote or adopted in this process (see `freshSource`).
    let fresh = FreshEntries()

    /// Temporary files older than this belong to a writer that died; reconciling removes them.
    static let staleTemporaryAge: TimeInterval = 3600

    /// Opens the cache in `directory`, creating the folder and its index if needed.
    /// - Parameters:
    ///   - directory: the cache folder; created with its parents if missing.
    ///   - clock: the time recorded for stores and hits (LRU order), and used to age temporary files.
    ///   - logger: told when a corrupt entry is dropped or a best-effort index write fails.
    /// - Throws: `CacheError.notWritable` when the folder cannot be created or written to,
    ///   `CacheError.indexFailed` when the SQLite index cannot be opened.
    public init(
        directory: String,
        clock: @escaping @Sendable () -> Date = Date.init,
        logger: Logger = Logger(label: "narrate.audio-cache", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws(CacheError) {
        // Entries hold PCM in the host's byte order, which must be the format's little-endian.
        precondition(UInt16(1).littleEndian == 1, "AudioCache supports little-endian hosts only")
        self.directory = directory
        self.layout = AudioCacheLayout(directory: directory)
        self.clock = clock
        self.logger = logger
        do throws(SystemCallError) {
            try Folder.makeAll(directory)
            try Folder.make(layout.objects)
            try Self.probeWritable(directory)
        } catch {
            throw .notWritable(path: directory, reason: error.reason)
        }
        index = try AudioCacheIndex(path: layout.index) { damaged, reason in
            logger.warning("The audio cache index was damaged (\(reason)); it was moved to \(damaged) and a new one started. No audio is lost: the entries are indexed again as they are used, and by 'narrate cache stats'.")
        }
    }

    deinit {
        do {
            try index.flush()
        } catch {
            logger.warning("Audio cache index updates were lost", metadata: ["error": "\(error)"])
        }
    }

    // MARK: - AudioCacheContract

    public func lookup(key: AudioCacheKey) async throws(CacheError) -> SpeechAudio? {
        let path = layout.entryPath(key)
        switch AudioCacheEntryFile.read(path: path, key: key) {
        case .missing:
            return nil
        case let .corrupt(reason, identity):
            logger.warning("Dropping a corrupt audio cache entry", metadata: ["path": "\(path)", "reason": "\(reason)"])
            discard(key: key, path: path, identity: identity)
            return nil
        case let .entry(audio, fileSize):
            let full = index.recordHit(key: key.hex, size: Int64(fileSize), duration: audio.duration, at: now)
            if full { flushBestEffort() }
            return audio
        }
    }

    public func containsEntry(key: AudioCacheKey) async -> Bool {
        AudioCacheEntryFile.status(layout.entryPath(key)).map { !$0.isDirectory } ?? false
    }

    public func store(_ audio: SpeechAudio, key: AudioCacheKey) async throws(CacheError) {
        let path = layout.entryPath(key)
        let prefix: [UInt8]
        do {
            prefix = try AudioCacheEntryCodec.encodePrefix(audio, key: key)
        } catch {
            throw .writeFailed(path: path, reason: error.reason)
        }
        do throws(SystemCallError) {
            let shard = layout.shardPath(key)
            try Folder.make(shard)
            sweepOnce(shard)
            let file = try AtomicFile(destination: path)
            // Header, PCM and digest go to the kernel in one writev, straight from their buffers.
            let written: Result<Void, SystemCallError> = audio.samples.withUnsafeBytes { samples in
                let digest = AudioCacheEntryCodec.digest(prefix: prefix, samples: samples)
                return prefix.withUnsafeBytes { header in
                    digest.withUnsafeBytes { trailer in
                        Result { () throws(SystemCallError) in try file.write([header, samples, trailer]) }
                    }
                }
            }
            try written.get()
            // No fsync: an entry torn by a power cut fails its CRC-32C on read and is made again;
            // waiting for the disk after each entry cost a book export a quarter of its time.
            try file.commit(durable: false)
        } catch {
            throw .writeFailed(path: path, reason: error.reason)
        }
        let size = Int64(prefix.count + audio.samples.count * MemoryLayout<Int16>.size + AudioCacheEntryCodec.digestSize)
        fresh.record(key, path: path, header: .init(keyBytes: key.bytes, sampleRate: audio.sampleRate, sampleCount: audio.samples.count, markCount: audio.wordMarks.count))
        if index.recordStore(key: key.hex, size: size, duration: audio.duration, at: now) {
            flushBestEffort()
        }
    }

    public func statistics() async throws(CacheError) -> CacheStatistics {
        try index.flush()
        let removed = try reconcile()
        var statistics = try index.statistics()
        statistics.removedTemporaries = removed
        return statistics
    }

    public func prune(maxBytes: Int64) async throws(CacheError) -> CachePruneResult {
        try index.flush()
        try reconcile()
        let rows = try index.rowsByLastUse()
        var total = rows.reduce(Int64(0)) { $0 + $1.size }
        var removed = [String]()
        var removedBytes: Int64 = 0
        for row in rows {
            guard total > maxBytes else { break }
            let path = layout.entryPath(hex: row.key)
            do throws(SystemCallError) {
                try AudioCacheEntryFile.remove(path)
            } catch {
                try index.delete(keys: removed)
                throw .notWritable(path: path, reason: error.reason)
            }
            removed.append(row.key)
            removedBytes += row.size
            total -= row.size
        }
        try index.delete(keys: removed)
        return CachePruneResult(removedEntries: removed.count, removedBytes: removedBytes)
    }

    public func clear() async throws(CacheError) {
        try index.flush()
        do throws(SystemCallError) {
            try layout.forEachObjectFile { (name, path) throws(SystemCallError) in
                // A young temporary file is another writer's store in progress: leave it.
                if TemporaryFileName.isTemporary(name, legacyCache: true), !isStale(name: name, path: path) { return }
                try AudioCacheEntryFile.remove(path)
            }
        } catch {
            throw .notWritable(path: error.path, reason: error.reason)
        }
        try index.deleteAll()
        removeRenderedResponses()
    }

    /// The service's rendered page files (`responses/`, see `narrate serve`): derived from the
    /// entries, so they go with them. One that cannot be removed is left for the next clear.
    private func removeRenderedResponses() {
        let folder = layout.responses
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where !TemporaryFileName.isTemporary(name) {
            unlink("\(folder)/\(name)")
        }
    }

    public func flush() async throws(CacheError) {
        try index.flush()
    }

    var now: Double { clock().timeIntervalSince1970 }

    // MARK: - Maintenance

    /// Removes a corrupt entry, unless the file was replaced since it was read.
    private func discard(key: AudioCacheKey, path: String, identity: AudioCacheEntryFile.FileIdentity?) {
        // Without an identity the file could not even be opened (e.g. permissions): leave it.
        guard let identity else { return }
        do {
            if AudioCacheEntryFile.status(path)?.identity == identity {
                try AudioCacheEntryFile.remove(path)
            }
            try index.delete(keys: [key.hex])
        } catch {
            logger.warning("Could not remove a corrupt audio cache entry", metadata: ["path": "\(path)", "error": "\(error)"])
        }
    }

    func flushBestEffort() {
        do {
            try index.flush()
        } catch {
            logger.warning("Audio cache index update postponed", metadata: ["error": "\(error)"])
        }
    }

    /// Brings the index in line with the files: indexes entry files it lacks (their writer died
    /// before its index write), drops rows whose file is gone, removes stale temporary files.
    /// - Returns: how many stale temporary files it removed.
    @discardableResult
    private func reconcile() throws(CacheError) -> Int {
        var files = [String: (path: String, size: Int, modified: Double)]()
        var removedTemporaries = 0
        do throws(SystemCallError) {
            try layout.forEachObjectFile { (name, path) throws(SystemCallError) in
                if TemporaryFileName.isTemporary(name, legacyCache: true) {
                    if isStale(name: name, path: path) {
                        try AudioCacheEntryFile.remove(path)
                        removedTemporaries += 1
                    }
                } else if name.utf8.count == 64, Hex.decode(name, byteCount: 32) != nil, let status = AudioCacheEntryFile.status(path), !status.isDirectory {
                    files[name] = (path, status.size, status.modified)
                }
            }
        } catch {
            throw .notWritable(path: error.path, reason: error.reason)
        }

        let indexed = try index.allKeys()
        var missing = [AudioCacheIndexRow]()
        for (name, file) in files where !indexed.contains(name) {
            guard let bytes = Hex.decode(name, byteCount: 32) else { continue }
            do {
                let header = try AudioCacheEntryFile.readHeader(path: file.path, key: AudioCacheKey(bytes: bytes))
                missing.append(AudioCacheIndexRow(
                    key: name, size: Int64(file.size), duration: header.duration,
                    createdAt: file.modified, lastUsedAt: file.modified, hits: 0))
            } catch {
                logger.warning("Dropping an unreadable audio cache entry", metadata: ["path": "\(file.path)", "error": "\(error)"])
                try? AudioCacheEntryFile.remove(file.path)
            }
        }
        try index.insertMissing(missing)
        try index.delete(keys: indexed.filter { files[$0] == nil })
        return removedTemporaries
    }

    /// Removes the temporary files of dead writers in `shard`, the first time it is asked.
    func sweepOnce(_ shard: String) {
        guard sweptShards.withLock({ $0.insert(shard).inserted }), let names = try? AudioCacheEntryFile.names(in: shard) else { return }
        for name in names where TemporaryFileName.isTemporary(name, legacyCache: true) {
            let path = "\(shard)/\(name)"
            if isStale(name: name, path: path) { try? AudioCacheEntryFile.remove(path) }
        }
    }

    /// A temporary file whose writer is gone: one of this machine's processes that no longer
    /// runs, or (a writer elsewhere sharing the folder, or a name that does not say) one
    /// untouched for an hour. Older versions' `.tmp-…` names are judged alike.
    private func isStale(name: String, path: String) -> Bool {
        switch TemporaryFileName.writer(of: name, legacyCache: true) {
        case .running?: return false
        case .gone?: return true
        case .unknown?, nil:
            guard let status = AudioCacheEntryFile.status(path) else { return false }
            return now - status.modified > Self.staleTemporaryAge
        }
    }

    // MARK: - Set-up helpers

    /// Proves the folder writable by creating and removing a file, as permissions alone can lie
    /// (read-only mounts, root, ACLs).
    private static func probeWritable(_ directory: String) throws(SystemCallError) {
        let probe = TemporaryFileName.beside("\(directory)/probe")
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .last("open", probe) }
        close(fd)
        try AudioCacheEntryFile.remove(probe)
    }
}
