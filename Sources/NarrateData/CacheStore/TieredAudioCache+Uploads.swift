import Foundation
import Logging
import NarrateDomain
import Synchronization

extension TieredAudioCache {
    // MARK: - Uploading

    /// Queues `key`'s entry for upload, unless the queue is full or the store cannot take it
    /// now (then the upload is skipped and counted). Never waits.
    func enqueueUpload(_ key: AudioCacheKey) {
        guard mode == .readWrite else { return }
        let queued = state.withLock { state -> Bool in
            guard !state.uploadsRefused, state.breaker.allows(at: .now), state.pending < queueLimit else {
                state.statistics.skippedUploads += 1
                state.unrecorded.skippedUploads += 1
                return false
            }
            state.pending += 1
            return true
        }
        guard queued else {
            observer(.uploadSkipped)
            return
        }
        uploads.yield(key)
    }

    func upload(_ key: AudioCacheKey) async {
        defer { state.withLock { $0.pending -= 1 } }
        let (allowed, damaged) = state.withLock { state in
            (!state.uploadsRefused && state.breaker.allows(at: .now), state.damaged.contains(key.hex))
        }
        guard allowed else {
            count(.uploadSkipped) { $0.skippedUploads += 1 }
            return
        }
        guard let body = local.entryBody(key: key) else { return }  // pruned meanwhile
        let start = ContinuousClock.now
        do {
            let outcome = try await putOnce(key, body: body, replacing: damaged)
            recordAnswer(operation: "put", since: start)
            if outcome == .stored { state.withLock { _ = $0.damaged.remove(key.hex) } }
        } catch let .refused(status, code) {
            count(.error) { $0.errors += 1 }
            state.withLock { $0.uploadsRefused = true }
            warnOnce("refused-upload", "The cache store \(store.location) refuses uploads (HTTP \(status) \(code)); new audio stays in the local cache only. With credentials that can only read, pass --cache-store-mode read-only.")
        } catch {
            recordFailure(error, operation: "uploading to")
        }
    }

    // MARK: - Uploading everything (`narrate cache push`)

    /// Uploads every local entry the store lacks, `width` at a time.
    /// - Returns: how many were uploaded, already there, and failed.
    public func pushAll(width: Int = 8, onProgress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }) async throws(CacheError) -> (uploaded: Int, present: Int, failed: Int) {
        let keys = try local.entryKeys()
        var done = (uploaded: 0, present: 0, failed: 0)
        await withTaskGroup(of: ObjectPutOutcome?.self) { group in
            var next = 0
            func add() {
                guard next < keys.count else { return }
                let key = keys[next]
                next += 1
                group.addTask { [self] in await pushOne(key) }
            }
            for _ in 0..<max(1, width) { add() }
            while let outcome = await group.next() {
                switch outcome {
                case .stored?: done.uploaded += 1
                case .alreadyPresent?: done.present += 1
                default: done.failed += 1
                }
                onProgress(done.uploaded + done.present + done.failed, keys.count)
                add()
            }
        }
        _ = await drain()
        return done
    }

    func pushOne(_ key: AudioCacheKey) async -> ObjectPutOutcome? {
        guard let body = local.entryBody(key: key) else { return nil }
        do {
            return try await putOnce(key, body: body, replacing: false)
        } catch {
            count(.error) { $0.errors += 1 }
            warnOnce("push", "Uploading to the cache store \(store.location) failed: \(error).")
            return nil
        }
    }

    /// Puts `key`'s entry unless the store has it (same key, same bytes): a conditional PUT,
    /// or a HEAD first on a store that takes none (learnt from its first answer). With
    /// `replacing`, the object is put whatever is there (a damaged one). Counts the outcome.
    func putOnce(_ key: AudioCacheKey, body: ObjectBody, replacing: Bool) async throws(CacheStoreError) -> ObjectPutOutcome {
        var outcome: ObjectPutOutcome
        let seal = try sealOf(body, key: key)
        if !replacing, !state.withLock({ $0.conditionalPuts }), try await store.exists(hex: key.hex) {
            outcome = .alreadyPresent
        } else {
            outcome = try await store.put(hex: key.hex, body: body, ifAbsent: !replacing && state.withLock { $0.conditionalPuts }, seal: seal)
            if outcome == .conditionUnsupported {
                state.withLock { $0.conditionalPuts = false }
                outcome = try await store.exists(hex: key.hex) ? .alreadyPresent : try await store.put(hex: key.hex, body: body, ifAbsent: false, seal: seal)
            }
        }
        if outcome == .alreadyPresent {
            count(.alreadyStored) { $0.alreadyStored += 1 }
        } else {
            count(.uploaded) { $0.uploads += 1 }
        }
        return outcome
    }

    /// The fleet key's seal of the entry `body` holds; `nil` without a key.
    func sealOf(_ body: ObjectBody, key: AudioCacheKey) throws(CacheStoreError) -> String? {
        guard let seal else { return nil }
        switch body {
        case let .bytes(bytes):
            return bytes.withUnsafeBytes { seal.seal(hex: key.hex, bytes: $0) }
        case let .file(path):
            guard let data = FileManager.default.contents(atPath: path) else {
                throw .failed(status: 0, code: "the local entry to upload is gone")
            }
            return data.withUnsafeBytes { seal.seal(hex: key.hex, bytes: $0) }
        }
    }
}
