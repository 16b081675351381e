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
    /// The fleet key: objects are uploaded with its seal and taken only with it.
    let seal: CacheStoreSeal?
    let drainDeadline: Duration
    let queueLimit: Int
    let logger: Logger
    let observer: @Sendable (CacheStoreEvent) -> Void
    let state: Mutex<State>
    let uploads: AsyncStream<AudioCacheKey>.Continuation

    struct State {
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
        firstPause: Duration = .seconds(15), seal: CacheStoreSeal? = nil,
        logger: Logger, observer: @escaping @Sendable (CacheStoreEvent) -> Void = { _ in }
    ) {
        self.local = local
        self.store = store
        self.mode = mode
        self.seal = seal
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

    /// Lets the process-wide list of tiers forget this one at once, without waiting for its
    /// uploads: for an owner that was cancelled (a removed export).
    public func abandon() {
        CacheStoreDrain.forget(self)
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

    // MARK: - Bookkeeping

    func count(_ event: CacheStoreEvent, _ change: (inout CacheStoreStatistics) -> Void) {
        state.withLock { state in
            change(&state.statistics)
            change(&state.unrecorded)
        }
        observer(event)
    }

    func recordAnswer(operation: String, since start: ContinuousClock.Instant) {
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

    func recordFailure(_ error: CacheStoreError, operation: String) {
        count(.error) { $0.errors += 1 }
        let pause = state.withLock { $0.breaker.recordFailure(at: .now) }
        guard let pause else { return }
        let message = "The cache store \(store.location) failed while \(operation) it: \(error). Narration goes on with the local cache and the engine; the store is asked again in \(Int(pause.seconds)) s."
        if !warnOnce("store-down", message) { logger.debug("\(message)") }
    }

    /// Logs `message` the first time `topic` comes up in this process.
    @discardableResult
    func warnOnce(_ topic: String, _ message: String) -> Bool {
        let first = state.withLock { $0.warned.insert(topic).inserted }
        if first { logger.warning("\(message)") }
        return first
    }
}
