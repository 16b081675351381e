import Foundation
import NarrateDomain
import Synchronization
import Testing

@testable import NarrateData

@Suite("Tiered audio cache: local folder in front of an object store")
struct TieredAudioCacheTests {
    let folder: TemporaryDirectory
    let store = ObjectStoreMock()

    init() throws {
        folder = try TemporaryDirectory()
    }

    // The drain returns as soon as the uploads are done; its deadline only bounds a test run
    // whose thread pool other suites keep busy. In a full run, the 1,000 tests that start at
    // once keep the pool so busy that a task's next step waits about 90 s (traced: a key queued
    // at 0 s reached the upload task at 92.6 s and its upload began at 96 s), and an upload
    // takes two such steps: CI once saw a 120 s deadline pass before them.
    private func makeSUT(mode: CacheStoreSettings.Mode = .readWrite, queueLimit: Int = 64, drain: Duration = .seconds(900)) throws -> (TieredAudioCache, LogHandlerMock.Recorder) {
        let (logger, recorder) = LogHandlerMock.logger()
        let sut = TieredAudioCache(local: try AudioCache(directory: folder.path), store: store, mode: mode, drainDeadline: drain, queueLimit: queueLimit, firstPause: .seconds(60), logger: logger)
        return (sut, recorder)
    }

    private func entryBytes(_ audio: SpeechAudio, _ key: AudioCacheKey) throws -> [UInt8] {
        try AudioCacheEntryCodec.encode(audio, key: key)
    }

    @Test("A local miss is answered from the store, verified, and kept locally: the next lookup asks the store nothing")
    func storeHit() async throws {
        // Given
        let key = AudioCacheFixtures.key("shared")
        store.serve([key.hex: try entryBytes(AudioCacheFixtures.audio(seed: 5), key)])
        let (sut, _) = try makeSUT()

        // When
        let first = try await sut.lookup(key: key)
        let second = try await sut.lookup(key: key)

        // Then
        #expect(first == AudioCacheFixtures.audio(seed: 5))
        #expect(second == first)
        #expect(store.calls == [.get(key.hex)])
        #expect(FileManager.default.fileExists(atPath: AudioCacheFixtures.entryPath(key, in: folder.path)))
        #expect(sut.storeStatistics.hits == 1)
    }

    @Test("containsEntry fetches from the store, so that an assembly reads locally what another machine made")
    func containsFetches() async throws {
        let key = AudioCacheFixtures.key("made elsewhere")
        store.serve([key.hex: try entryBytes(AudioCacheFixtures.audio(seed: 2), key)])
        let (sut, _) = try makeSUT()

        #expect(await sut.containsEntry(key: AudioCacheFixtures.key("nowhere")) == false)
        #expect(await sut.containsEntry(key: key))
        #expect(try await sut.local.lookup(key: key) == AudioCacheFixtures.audio(seed: 2))
        #expect(sut.storeStatistics.misses == 1)
    }

    @Test("Asking about many keys answers each in order: local ones, the store's, and missing ones")
    func containsMany() async throws {
        let local = AudioCacheFixtures.key("local"), remote = AudioCacheFixtures.key("remote"), none = AudioCacheFixtures.key("none")
        store.serve([remote.hex: try entryBytes(AudioCacheFixtures.audio(seed: 3), remote)])
        let (sut, _) = try makeSUT()
        try await sut.local.store(AudioCacheFixtures.audio(seed: 1), key: local)
        let keys = [none, local, remote] + (0..<40).map { AudioCacheFixtures.key("n\($0)") }

        let found = await sut.containsEntries(keys: keys)

        #expect(found == [false, true, true] + Array(repeating: false, count: 40))
        #expect(!store.calls.contains(.get(local.hex)))
        #expect(try await sut.local.lookup(key: remote) != nil)
    }

    @Test("A truncated or foreign object is never served: a miss, said once, replaced by the next upload", arguments: ["truncated", "other bytes"])
    func corruptObject(_ damage: String) async throws {
        // Given
        let key = AudioCacheFixtures.key("damaged")
        let good = try entryBytes(AudioCacheFixtures.audio(seed: 7), key)
        let bad = damage == "truncated" ? Array(good.prefix(good.count - 100)) : try entryBytes(AudioCacheFixtures.audio(seed: 8), AudioCacheFixtures.key("other"))
        store.serve([key.hex: bad])
        let (sut, recorder) = try makeSUT()

        // When
        let first = try await sut.lookup(key: key)
        let again = await sut.containsEntry(key: key)
        try await sut.store(AudioCacheFixtures.audio(seed: 7), key: key)
        await sut.drain()

        // Then
        #expect(first == nil)
        #expect(again == false)
        #expect(sut.storeStatistics.corrupt == 1)
        #expect(store.calls.filter { $0 == .get(key.hex) }.count == 1)  // not asked again at once
        #expect(recorder.messages.filter { $0.contains("damaged object") }.count == 1)
        #expect(store.calls.last == .put(key.hex, ifAbsent: false))
        #expect(store.state.withLock { $0.objects?[key.hex] } == good)
    }

    @Test("A key the store lacked is not asked for again at once (a batch asks twice: planning, then filling)")
    func absenceRemembered() async throws {
        store.serve()
        let (sut, _) = try makeSUT()
        let key = AudioCacheFixtures.key("new to everyone")

        #expect(await sut.containsEntry(key: key) == false)
        #expect(await sut.containsEntry(key: key) == false)
        #expect(try await sut.lookup(key: key) == nil)

        #expect(store.calls == [.get(key.hex)])
        #expect(sut.storeStatistics.misses == 1)
    }

    @Test("A new entry is stored locally at once and uploaded in the background with a conditional PUT")
    func uploads() async throws {
        let key = AudioCacheFixtures.key("new")
        store.serve()
        let (sut, _) = try makeSUT()

        try await sut.store(AudioCacheFixtures.audio(seed: 1), key: key)
        #expect(try await sut.local.lookup(key: key) != nil)
        let left = await sut.drain()

        #expect(left == 0)
        #expect(store.calls == [.put(key.hex, ifAbsent: true)])
        #expect(store.state.withLock { $0.objects?[key.hex] } == (try entryBytes(AudioCacheFixtures.audio(seed: 1), key)))
        #expect(sut.storeStatistics.uploads == 1)
        #expect(CacheStoreRecord(directory: folder.path).read().uploads == 1)
    }

    @Test("An object already in the store is not sent again")
    func alreadyStored() async throws {
        let key = AudioCacheFixtures.key("twice")
        store.serve([key.hex: try entryBytes(AudioCacheFixtures.audio(seed: 1), key)])
        let (sut, _) = try makeSUT()

        try await sut.store(AudioCacheFixtures.audio(seed: 1), key: key)
        await sut.drain()

        #expect(sut.storeStatistics.alreadyStored == 1)
        #expect(sut.storeStatistics.uploads == 0)
    }

    @Test("A store without conditional PUTs is asked with HEAD first, and only then")
    func headFirst() async throws {
        store.serve()
        store.state.withLock { $0.conditionalPuts = false }
        let (sut, _) = try makeSUT()
        let a = AudioCacheFixtures.key("a"), b = AudioCacheFixtures.key("b")

        try await sut.store(AudioCacheFixtures.audio(seed: 1), key: a)
        await sut.drain()
        try await sut.store(AudioCacheFixtures.audio(seed: 2), key: b)
        await sut.drain()

        #expect(store.calls == [.put(a.hex, ifAbsent: true), .exists(a.hex), .put(a.hex, ifAbsent: false), .exists(b.hex), .put(b.hex, ifAbsent: false)])
    }

    @Test("A full queue skips the upload and counts it; the entry is stored locally all the same")
    func fullQueue() async throws {
        store.serve()
        store.state.withLock { $0.hang = true }
        let (sut, _) = try makeSUT(queueLimit: 1, drain: .milliseconds(50))

        for name in ["one", "two", "three"] {
            try await sut.store(AudioCacheFixtures.audio(seed: 1), key: AudioCacheFixtures.key(name))
        }
        let left = await sut.drain()

        #expect(sut.storeStatistics.skippedUploads == 2)
        #expect(left == 1)
        for name in ["one", "two", "three"] {
            #expect(try await sut.local.lookup(key: AudioCacheFixtures.key(name)) != nil)
        }
    }

    @Test("A store that is down costs one warning; the breaker then keeps requests away from it")
    func breaker() async throws {
        store.state.withLock { $0.failure = .unreachable(host: "http://127.0.0.1:1", reason: "connection refused") }
        let (sut, recorder) = try makeSUT()

        for name in ["a", "b", "c"] {
            #expect(try await sut.lookup(key: AudioCacheFixtures.key(name)) == nil)
        }
        try await sut.store(AudioCacheFixtures.audio(seed: 1), key: AudioCacheFixtures.key("d"))
        await sut.drain()

        #expect(store.calls == [.get(AudioCacheFixtures.key("a").hex)])
        #expect(recorder.messages.filter { $0.hasPrefix("warning") }.count == 1)
        #expect(recorder.messages.first { $0.hasPrefix("warning") }?.contains("asked again in 60 s") == true)
        #expect(sut.storeStatistics.errors == 1)
        #expect(sut.storeStatistics.skippedUploads == 1)
    }

    @Test("Uploads refused with 403 stop, with one warning naming the read-only mode; reads go on")
    func refusedUploads() async throws {
        let hit = AudioCacheFixtures.key("readable")
        store.serve([hit.hex: try entryBytes(AudioCacheFixtures.audio(seed: 4), hit)])
        store.state.withLock { $0.putFailure = .refused(status: 403, code: "AccessDenied") }
        let (sut, recorder) = try makeSUT()

        try await sut.store(AudioCacheFixtures.audio(seed: 1), key: AudioCacheFixtures.key("x"))
        await sut.drain()
        try await sut.store(AudioCacheFixtures.audio(seed: 2), key: AudioCacheFixtures.key("y"))
        await sut.drain()
        let read = try await sut.lookup(key: hit)

        #expect(read == AudioCacheFixtures.audio(seed: 4))
        #expect(store.calls.filter { if case .put = $0 { true } else { false } }.count == 1)
        #expect(recorder.messages.filter { $0.contains("--cache-store-mode read-only") }.count == 1)
    }

    @Test("Read-only mode reads and never uploads")
    func readOnly() async throws {
        store.serve()
        let (sut, _) = try makeSUT(mode: .readOnly)

        try await sut.store(AudioCacheFixtures.audio(seed: 1), key: AudioCacheFixtures.key("kept here"))
        _ = try await sut.lookup(key: AudioCacheFixtures.key("absent"))
        await sut.drain()

        #expect(store.calls == [.get(AudioCacheFixtures.key("absent").hex)])
        #expect(sut.storeStatistics.skippedUploads == 0)
    }

    @Test("Pushing uploads what the store lacks and counts what it has")
    func push() async throws {
        let present = AudioCacheFixtures.key("present")
        store.serve([present.hex: try entryBytes(AudioCacheFixtures.audio(seed: 1), present)])
        let local = try AudioCache(directory: folder.path)
        try await local.store(AudioCacheFixtures.audio(seed: 1), key: present)
        try await local.store(AudioCacheFixtures.audio(seed: 2), key: AudioCacheFixtures.key("missing"))
        let (sut, _) = try makeSUT()

        let result = try await sut.pushAll()

        #expect(result.uploaded == 1)
        #expect(result.present == 1)
        #expect(result.failed == 0)
    }
}
