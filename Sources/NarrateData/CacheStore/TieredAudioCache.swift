import Foundation
import Logging
import NarrateDomain
import Synchronization

/// The local cache folder in front of a shared object store, as sccache and bazel-remote put a
/// disk cache before S3:
/// - a local miss asks the store; an object it has is verified (header, length, checksum)
///   before it is written into the local tier and used; a damaged one counts as a miss, is said
///   once, and is replaced by the next upload of that key;
/// - a new entry is stored locally at once and uploaded in the background through a bounded
///   queue: when it is full the upload is skipped and counted, and narration never waits;
/// - a store that cannot be reached, is too slow or refuses costs one warning, and a circuit
///   breaker keeps requests away from it for a while; narration goes on from the local tier
///   and the engine;
/// - at exit, `drain()` waits for pending uploads up to the drain deadline.
public final class TieredAudioCache: AudioCacheContract {
    public let local: AudioCache
    public let store: any ObjectStoreContract
    public let mode: CacheStoreSettings.Mode
    private let drainDeadline: Duration
    private let queueLimit: Int
    private let logger: Logger
    private let observer: @Sendable (CacheStoreEvent) -> Void
    private let state: Mutex<State>
    private let uploads: AsyncStream<AudioCacheKey>.Continuation

    private struct State {
        var breaker: CircuitBreaker
        var statistics = CacheStoreStatistics()
        /// Uploads queued or running.
        var pending = 0
        /// The store answered 403 to an upload: these credentials cannot write.
        var uploadsRefused = false
        /// Whether the store takes `If-None-Match: *` on a PUT (else HEAD comes first).
        var conditionalPuts = true
        /// Keys whose object in the store failed verification: their upload replaces it.
        var damaged: Set<String> = []
        /// Keys the store lacked (or held damaged) lately, and when: a batch asks about a key
        /// more than once (planning, then filling), and the store is asked once.
        var absent: [String: ContinuousClock.Instant] = [:]
        /// Warnings given (each once per process).
        var warned: Set<String> = []
        /// Statistics not yet added to the local tier's record.
        var unrecorded = CacheStoreStatistics()
    }

    /// - Parameters:
    ///   - breaker: when to ask a failing store again (a test shortens it).
    ///   - observer: told of every store event (the service's metrics); it must return quickly.
    public init(
        local: AudioCache, store: any ObjectStoreContract, mode: CacheStoreSettings.Mode = .readWrite,
        drainDeadline: Duration = .seconds(10), queueLimit: Int = 512, uploadConcurrency: Int = 4,
        firstPause: Duration = .seconds(15),
        logger: Logger, observer: @escaping @Sendable (CacheStoreEvent) -> Void = { _ in }
    ) {
        self.local = local
        self.store = store
        self.mode = mode
        self.drainDeadline = drainDeadline
        self.queueLimit = max(1, queueLimit)
        self.logger = logger
        self.observer = observer
        state = Mutex(State(breaker: CircuitBreaker(firstPause: firstPause)))
        let (stream, continuation) = AsyncStream.makeStream(of: AudioCacheKey.self)
        uploads = continuation
        let width = max(1, uploadConcurrency)
        Task.detached { [weak self] in
            await withTaskGroup(of: Void.self) { group in
                var running = 0
                for await key in stream {
                    if running >= width {
                        await group.next()
                        running -= 1
                    }
                    guard let self else { return }
                    group.addTask { await self.upload(key) }
                    running += 1
                }
            }
        }
        CacheStoreDrain.register(self)
    }

    deinit {
        uploads.finish()
    }

    /// What the store tier did in this process so far.
    public var storeStatistics: CacheStoreStatistics {
        state.withLock { $0.statistics }
    }

    // MARK: - AudioCacheContract

    public func lookup(key: AudioCacheKey) async throws(CacheError) -> SpeechAudio? {
        if let audio = try await local.lookup(key: key) { return audio }
        guard case let .audio(audio)? = await fetch(key, wantsAudio: true) else { return nil }
        return audio
    }

    /// Whether the local tier has the entry, or the store has it (then fetched and verified
    /// into the local tier, so that what follows reads it locally).
    public func containsEntry(key: AudioCacheKey) async -> Bool {
        if await local.containsEntry(key: key) { return true }
        return await fetch(key, wantsAudio: false) != nil
    }

    /// `containsEntry` for each key, the store asked about up to `fetchWidth` at a time (an
    /// assembly asks about a whole book's chunks before it writes).
    public func containsEntries(keys: [AudioCacheKey]) async -> [Bool] {
        var found = [Bool](repeating: false, count: keys.count)
        var remote: [Int] = []
        for (index, key) in keys.enumerated() {
            if await local.containsEntry(key: key) { found[index] = true } else { remote.append(index) }
        }
        await withTaskGroup(of: (Int, Bool).self) { group in
            var next = 0
            func add() {
                guard next < remote.count else { return }
                let index = remote[next]
                next += 1
                group.addTask { [self] in (index, await fetch(keys[index], wantsAudio: false) != nil) }
            }
            for _ in 0..<Self.fetchWidth { add() }
            while let (index, present) = await group.next() {
                found[index] = present
                add()
            }
        }
        return found
    }

    /// How many store reads one `containsEntries` runs at once.
    static let fetchWidth = 16

    public func store(_ audio: SpeechAudio, key: AudioCacheKey) async throws(CacheError) {
        try await local.store(audio, key: key)
        enqueueUpload(key)
    }

    public func statistics() async throws(CacheError) -> CacheStatistics {
        try await local.statistics()
    }

    public func prune(maxBytes: Int64) async throws(CacheError) -> CachePruneResult {
        try await local.prune(maxBytes: maxBytes)
    }

    /// Clears the local tier only: the store is shared, and a bucket is never listed.
    public func clear() async throws(CacheError) {
        try await local.clear()
    }

    public func flush() async throws(CacheError) {
        try await local.flush()
    }

    public func draftEntry(key: AudioCacheKey) -> EntryDraft? {
        local.draftEntry(key: key)
    }

    public func adoptEntry(_ draft: EntryDraft, readBack: Bool) async throws(CacheError) -> SpeechAudio? {
        let audio = try await local.adoptEntry(draft, readBack: readBack)
        enqueueUpload(draft.key)
        return audio
    }

    public func discardDraft(_ draft: EntryDraft) {
        local.discardDraft(draft)
    }

    public func freshSource(key: AudioCacheKey) async -> EntrySource? {
        await local.freshSource(key: key)
    }

    // MARK: - Reading from the store

    /// What a store read gave: the audio, or only the entry kept locally.
    private enum Fetched {
        case audio(SpeechAudio)
        case kept
    }

    /// The store's object for `key`, verified and written into the local tier as it came (an
    /// output then copies its PCM from there); with `wantsAudio`, its audio too. `nil` on a
    /// miss, a damaged object, or a store that is down (breaker open) or fails now.
    private func fetch(_ key: AudioCacheKey, wantsAudio: Bool) async -> Fetched? {
        let now = ContinuousClock.now
        let ask = state.withLock { state in
            if let since = state.absent[key.hex], now - since < Self.absenceMemory { return false }
            return state.breaker.allows(at: now)
        }
        guard ask else { return nil }
        let start = ContinuousClock.now
        let bytes: [UInt8]?
        do {
            bytes = try await store.get(hex: key.hex)
        } catch {
            recordFailure(error, operation: "reading")
            return nil
        }
        recordAnswer(operation: "get", since: start)
        guard let bytes else {
            count(.miss) { $0.misses += 1 }
            rememberAbsent(key)
            return nil
        }
        let checked: Result<(AudioCacheEntryCodec.Header, SpeechAudio?), AudioCacheEntryError> = bytes.withUnsafeBytes { raw in
            do throws(AudioCacheEntryError) {
                let header = try AudioCacheEntryCodec.verify(raw, key: key)
                return .success((header, wantsAudio ? try AudioCacheEntryCodec.audio(raw, header: header) : nil))
            } catch {
                return .failure(error)
            }
        }
        let header: AudioCacheEntryCodec.Header
        let audio: SpeechAudio?
        switch checked {
        case let .success(verified):
            (header, audio) = verified
        case let .failure(error):
            count(.corrupt) { $0.corrupt += 1 }
            state.withLock { _ = $0.damaged.insert(key.hex) }
            rememberAbsent(key)
            warnOnce("corrupt", "The cache store \(store.location) holds a damaged object (\(key.hex.prefix(12)): \(error.reason)); it is not used, its audio is made again and uploaded in its place.")
            return nil
        }
        count(.hit) { $0.hits += 1 }
        let kept: Result<Void, CacheError> = bytes.withUnsafeBytes { raw in
            Result { () throws(CacheError) in try local.storeEntryBytes(raw, key: key, header: header) }
        }
        if case let .failure(error) = kept {
            warnOnce("local", "Audio from the cache store could not be kept in the local cache (\(error)); it is used all the same.")
            // Not kept: a caller that only asked whether it exists reads it from the store again.
            if audio == nil, let decoded = try? AudioCacheEntryCodec.decode(bytes, key: key) { return .audio(decoded) }
        }
        return audio.map(Fetched.audio) ?? .kept
    }

    /// How long a key the store lacked is not asked for again.
    static let absenceMemory: Duration = .seconds(30)

    private func rememberAbsent(_ key: AudioCacheKey) {
        let now = ContinuousClock.now
        state.withLock { state in
            if state.absent.count >= 100_000 { state.absent.removeAll(keepingCapacity: true) }
            state.absent[key.hex] = now
        }
    }

    // MARK: - Uploading

    /// Queues `key`'s entry for upload, unless the queue is full or the store cannot take it
    /// now (then the upload is skipped and counted). Never waits.
    private func enqueueUpload(_ key: AudioCacheKey) {
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

    private func upload(_ key: AudioCacheKey) async {
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

    /// Waits for queued and running uploads, up to the drain deadline, and says in one line
    /// what was left. Adds this process's statistics to the local tier's record.
    /// - Returns: how many uploads were left unfinished.
    @discardableResult
    public func drain() async -> Int {
        let deadline = ContinuousClock.now + drainDeadline
        while state.withLock({ $0.pending }) > 0, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        let left = state.withLock { $0.pending }
        if left > 0 {
            logger.warning("\(left) upload\(left == 1 ? "" : "s") to the cache store \(store.location) did not finish within \(Int(drainDeadline.seconds)) s (--cache-store-drain); the audio stays in the local cache, and 'narrate cache push' uploads it later.")
        }
        let unrecorded = state.withLock { state in
            defer { state.unrecorded = CacheStoreStatistics() }
            return state.unrecorded
        }
        if !unrecorded.isEmpty {
            CacheStoreRecord(directory: local.directory).add(unrecorded)
        }
        return left
    }

    /// Drains (see `drain`) and lets the process-wide list of tiers to drain at exit forget
    /// this one: for an owner that is done with it before the process ends.
    public func finish() async {
        await CacheStoreDrain.finish(self)
    }

    /// Whether the store answers now: a HEAD of a key no entry has (no listing needed).
    /// - Returns: `nil` when it answers, else what is wrong.
    public func probe() async -> CacheStoreError? {
        do {
            _ = try await store.exists(hex: String(repeating: "0", count: 64))
            return nil
        } catch {
            return error
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

    private func pushOne(_ key: AudioCacheKey) async -> ObjectPutOutcome? {
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
    private func putOnce(_ key: AudioCacheKey, body: ObjectBody, replacing: Bool) async throws(CacheStoreError) -> ObjectPutOutcome {
        var outcome: ObjectPutOutcome
        if !replacing, !state.withLock({ $0.conditionalPuts }), try await store.exists(hex: key.hex) {
            outcome = .alreadyPresent
        } else {
            outcome = try await store.put(hex: key.hex, body: body, ifAbsent: !replacing && state.withLock { $0.conditionalPuts })
            if outcome == .conditionUnsupported {
                state.withLock { $0.conditionalPuts = false }
                outcome = try await store.exists(hex: key.hex) ? .alreadyPresent : try await store.put(hex: key.hex, body: body, ifAbsent: false)
            }
        }
        if outcome == .alreadyPresent {
            count(.alreadyStored) { $0.alreadyStored += 1 }
        } else {
            count(.uploaded) { $0.uploads += 1 }
        }
        return outcome
    }

    // MARK: - Bookkeeping

    private func count(_ event: CacheStoreEvent, _ change: (inout CacheStoreStatistics) -> Void) {
        state.withLock { state in
            change(&state.statistics)
            change(&state.unrecorded)
        }
        observer(event)
    }

    private func recordAnswer(operation: String, since start: ContinuousClock.Instant) {
        let seconds = (ContinuousClock.now - start).seconds
        let recovered = state.withLock { state in
            state.statistics.requests += 1
            state.statistics.requestSeconds += seconds
            state.unrecorded.requests += 1
            state.unrecorded.requestSeconds += seconds
            return state.breaker.recordSuccess()
        }
        observer(.request(operation: operation, seconds: seconds))
        if recovered { logger.info("The cache store \(store.location) answers again.") }
    }

    private func recordFailure(_ error: CacheStoreError, operation: String) {
        count(.error) { $0.errors += 1 }
        let pause = state.withLock { $0.breaker.recordFailure(at: .now) }
        guard let pause else { return }
        let message = "The cache store \(store.location) failed while \(operation) it: \(error). Narration goes on with the local cache and the engine; the store is asked again in \(Int(pause.seconds)) s."
        if !warnOnce("store-down", message) { logger.debug("\(message)") }
    }

    /// Logs `message` the first time `topic` comes up in this process.
    @discardableResult
    private func warnOnce(_ topic: String, _ message: String) -> Bool {
        let first = state.withLock { $0.warned.insert(topic).inserted }
        if first { logger.warning("\(message)") }
        return first
    }
}
