#if canImport(Glibc)
import Glibc
#endif
import NarrateDomain

/// Entries the engine writes itself: a draft name for it, the check and rename that adopt it,
/// and where a fresh entry's PCM lies for outputs copied in the kernel.
extension AudioCache {
    public func draftEntry(key: AudioCacheKey) -> EntryDraft? {
        let shard = layout.shardPath(key)
        do {
            try Folder.make(shard)
        } catch {
            return nil  // stored from memory instead, where the failure is reported once
        }
        sweepOnce(shard)
        let path = TemporaryFileName.beside(layout.entryPath(key))
        TemporaryFileRegistry.register(path)
        return EntryDraft(path: path, key: key)
    }

    public func adoptEntry(_ draft: EntryDraft, readBack: Bool) async throws(CacheError) -> SpeechAudio? {
        defer { TemporaryFileRegistry.unregister(draft.path) }
        let path = layout.entryPath(draft.key)
        var audio: SpeechAudio?
        let header: AudioCacheEntryCodec.Header
        if readBack {
            switch AudioCacheEntryFile.read(path: draft.path, key: draft.key) {
            case let .entry(read, _):
                audio = read
                header = .init(keyBytes: draft.key.bytes, sampleRate: read.sampleRate, sampleCount: read.samples.count, markCount: read.wordMarks.count)
            case .missing:
                throw .writeFailed(path: path, reason: "the engine's entry file is missing")
            case let .corrupt(reason, _):
                unlink(draft.path)
                throw .writeFailed(path: path, reason: "the engine wrote a bad entry: \(reason)")
            }
        } else {
            do {
                header = try AudioCacheEntryFile.readHeader(path: draft.path, key: draft.key)
            } catch {
                unlink(draft.path)
                throw .writeFailed(path: path, reason: "the engine wrote a bad entry: \((error as? AudioCacheEntryError)?.reason ?? "\(error)")")
            }
        }
        guard rename(draft.path, path) == 0 else {
            let error = SystemCallError.last("rename", path)
            unlink(draft.path)
            throw .writeFailed(path: path, reason: error.reason)
        }
        fresh.record(draft.key, path: path, header: header)
        if index.recordStore(key: draft.key.hex, size: Int64(header.entryByteCount), duration: header.duration, at: now) {
            flushBestEffort()
        }
        return audio
    }

    public func discardDraft(_ draft: EntryDraft) {
        unlink(draft.path)
        TemporaryFileRegistry.unregister(draft.path)
    }

    public func freshSource(key: AudioCacheKey) async -> EntrySource? {
        let path = layout.entryPath(key)
        guard let header = fresh.entry(key, path: path) else { return nil }
        // The marks are a few kilobytes after the fixed header.
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: header.marksByteCount)
        let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(AudioCacheEntryCodec.fixedHeaderSize)) }
        guard count == bytes.count,
              let marks = try? bytes.withUnsafeBytes({ raw throws(AudioCacheEntryError) in try AudioCacheEntryCodec.decodeMarks(raw, count: header.markCount, sampleCount: header.sampleCount) })
        else {
            fresh.forget(key)
            return nil
        }
        // Not a hit: the entry was made by this process a moment ago, for this very output.
        return EntrySource(path: path, pcmOffset: header.prefixByteCount, sampleCount: header.sampleCount, sampleRate: header.sampleRate, wordMarks: marks)
    }
}
