import Foundation
import Logging
@testable import NarrateData
import NarrateDomain
import Testing

@Suite struct AudioCacheTests {
    typealias Fixtures = AudioCacheFixtures

    let folder: TemporaryDirectory
    let clock = ClockMock()

    init() throws {
        folder = try TemporaryDirectory()
    }

    private func makeCache(logger: LoggerBox? = nil) throws -> AudioCache {
        if let logger {
            return try AudioCache(directory: folder.path, clock: clock.clock, logger: logger.logger)
        }
        return try AudioCache(directory: folder.path, clock: clock.clock)
    }

    // MARK: - Lookup and store

    @Test("a lookup in an empty cache is a miss")
    func missOnEmptyCache() async throws {
        // Given
        let sut = try makeCache()

        // When
        let audio = try await sut.lookup(key: Fixtures.key("nothing"))

        // Then
        #expect(audio == nil)
    }

    @Test("stored audio is returned unchanged: samples, sample rate and word marks")
    func storeThenLookup() async throws {
        // Given
        let sut = try makeCache()
        let key = Fixtures.key("hello")
        let audio = Fixtures.audio(count: 12_345, sampleRate: 16_000)

        // When
        try await sut.store(audio, key: key)
        let found = try await sut.lookup(key: key)

        // Then
        #expect(found == audio)
        #expect(found?.wordMarks.count == 124)
    }

    @Test("storing under a key that has an entry replaces it")
    func storeReplaces() async throws {
        // Given
        let sut = try makeCache()
        let key = Fixtures.key("replace")
        try await sut.store(Fixtures.audio(seed: 1), key: key)

        // When
        try await sut.store(Fixtures.audio(seed: 2, count: 500), key: key)

        // Then
        #expect(try await sut.lookup(key: key) == Fixtures.audio(seed: 2, count: 500))
        #expect(try await sut.statistics().entryCount == 1)
    }

    @Test("a hit is counted in the statistics once flushed")
    func hitRecorded() async throws {
        // Given
        let sut = try makeCache()
        let key = Fixtures.key("hit")
        let audio = Fixtures.audio(count: 22_050, sampleRate: 22_050)
        try await sut.store(audio, key: key)

        // When
        _ = try await sut.lookup(key: key)
        _ = try await sut.lookup(key: key)
        try await sut.flush()
        let statistics = try await sut.statistics()

        // Then
        let fileSize = try FileManager.default.attributesOfItem(atPath: Fixtures.entryPath(key, in: folder.path))[.size] as? Int
        #expect(statistics == CacheStatistics(entryCount: 1, totalBytes: Int64(fileSize ?? -1), totalDuration: 1.0, totalHits: 2))
    }

    @Test("pending hits are written when the cache is released")
    func deinitFlushes() async throws {
        // Given
        let key = Fixtures.key("deinit")
        do {
            let first = try makeCache()
            try await first.store(Fixtures.audio(), key: key)
            _ = try await first.lookup(key: key)
        }

        // When
        let second = try makeCache()
        let statistics = try await second.statistics()

        // Then
        #expect(statistics.totalHits == 1)
    }

    @Test("no temporary file is left after stores")
    func noTemporaryFilesRemain() async throws {
        // Given
        let sut = try makeCache()

        // When
        for index in 0..<20 {
            try await sut.store(Fixtures.audio(seed: index), key: Fixtures.key("entry \(index)"))
        }

        // Then
        let names = Fixtures.objectFileNames(in: folder.path)
        #expect(names.count == 20)
        #expect(names.allSatisfy { !TemporaryFileName.isTemporary($0, legacyCache: true) })
        let topLevel = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(topLevel.allSatisfy { !TemporaryFileName.isTemporary($0, legacyCache: true) })
    }

    // MARK: - Corruption

    @Test("a truncated entry is a miss, is removed and logged, and can be stored again")
    func truncatedEntry() async throws {
        // Given
        let box = LoggerBox()
        let sut = try makeCache(logger: box)
        let key = Fixtures.key("truncated")
        let audio = Fixtures.audio()
        try await sut.store(audio, key: key)
        let path = Fixtures.entryPath(key, in: folder.path)
        #expect(truncate(path, 1_000) == 0)

        // When
        let found = try await sut.lookup(key: key)

        // Then
        #expect(found == nil)
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(box.recorder.messages.contains { $0.contains("corrupt") && $0.contains("truncated") })
        try await sut.store(audio, key: key)
        #expect(try await sut.lookup(key: key) == audio)
    }

    @Test("an entry with a flipped PCM byte is a miss and is removed")
    func flippedByte() async throws {
        // Given
        let sut = try makeCache()
        let key = Fixtures.key("flipped")
        let audio = Fixtures.audio()
        try await sut.store(audio, key: key)
        let path = Fixtures.entryPath(key, in: folder.path)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[AudioCacheEntryCodec.fixedHeaderSize + audio.wordMarks.count * AudioCacheEntryCodec.markSize + 101] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        // When
        let found = try await sut.lookup(key: key)

        // Then
        #expect(found == nil)
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try await sut.statistics().entryCount == 0)
    }

    /// Entries are not fsynced: after a power cut the file may be there with no data yet, or
    /// with its size but some blocks never written (they read as zeros).
    @Test("what a power cut can leave of an entry (empty, or zeroed blocks) is a miss and is removed", arguments: ["empty", "zeroed tail", "all zeros"])
    func tornByPowerCut(damage: String) async throws {
        // Given
        let sut = try makeCache()
        let key = Fixtures.key("torn \(damage)")
        let audio = Fixtures.audio()
        try await sut.store(audio, key: key)
        let path = Fixtures.entryPath(key, in: folder.path)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        switch damage {
        case "empty": bytes = []
        case "zeroed tail": bytes.replaceSubrange((bytes.count / 2)..., with: repeatElement(0, count: bytes.count - bytes.count / 2))
        default: bytes = [UInt8](repeating: 0, count: bytes.count)
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        // When
        let found = try await sut.lookup(key: key)

        // Then
        #expect(found == nil)
        #expect(!FileManager.default.fileExists(atPath: path))
        try await sut.store(audio, key: key)
        #expect(try await sut.lookup(key: key) == audio)
    }

    @Test("an entry whose header names another key is a miss and is removed")
    func wrongKeyInHeader() async throws {
        // Given
        let sut = try makeCache()
        let key = Fixtures.key("right")
        let path = Fixtures.entryPath(key, in: folder.path)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let entry = try AudioCacheEntryCodec.encode(Fixtures.audio(), key: Fixtures.key("wrong"))
        try Data(entry).write(to: URL(fileURLWithPath: path))

        // When
        let found = try await sut.lookup(key: key)

        // Then
        #expect(found == nil)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    // MARK: - Sharing

    @Test("two caches on one folder store and read concurrently and see each other's entries")
    func twoInstancesShareAFolder() async throws {
        // Given
        let first = try makeCache()
        let second = try makeCache()
        let count = 50

        // When
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                group.addTask {
                    try await first.store(Fixtures.audio(seed: index), key: Fixtures.key("first \(index)"))
                    _ = try await first.lookup(key: Fixtures.key("second \(index)"))
                }
                group.addTask {
                    try await second.store(Fixtures.audio(seed: 1_000 + index), key: Fixtures.key("second \(index)"))
                    _ = try await second.lookup(key: Fixtures.key("first \(index)"))
                }
            }
            try await group.waitForAll()
        }

        // Then
        for index in 0..<count {
            #expect(try await first.lookup(key: Fixtures.key("second \(index)")) == Fixtures.audio(seed: 1_000 + index))
            #expect(try await second.lookup(key: Fixtures.key("first \(index)")) == Fixtures.audio(seed: index))
        }
        try await first.flush()
        try await second.flush()
        let fromFirst = try await first.statistics()
        let fromSecond = try await second.statistics()
        #expect(fromFirst.entryCount == 2 * count)
        #expect(fromFirst == fromSecond)
        #expect(fromFirst.totalHits >= 2 * count)
    }

    // MARK: - Statistics, prune, clear

    @Test("statistics index an entry file whose index row is missing")
    func reconcileAddsUnindexedFile() async throws {
        // Given: a process wrote the file, then died before its index write
        let sut = try makeCache()
        let key = Fixtures.key("orphan file")
        let audio = Fixtures.audio(count: 11_025, sampleRate: 22_050)
        let entry = try AudioCacheEntryCodec.encode(audio, key: key)
        let path = Fixtures.entryPath(key, in: folder.path)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(entry).write(to: URL(fileURLWithPath: path))

        // When
        let statistics = try await sut.statistics()

        // Then
        #expect(statistics == CacheStatistics(entryCount: 1, totalBytes: Int64(entry.count), totalDuration: 0.5, totalHits: 0))
        #expect(try await sut.lookup(key: key) == audio)
    }

    @Test("statistics drop an index row whose file is gone")
    func reconcileDropsMissingFile() async throws {
        // Given
        let sut = try makeCache()
        let key = Fixtures.key("gone")
        try await sut.store(Fixtures.audio(), key: key)
        try await sut.flush()
        try FileManager.default.removeItem(atPath: Fixtures.entryPath(key, in: folder.path))

        // When
        let statistics = try await sut.statistics()

        // Then
        #expect(statistics.entryCount == 0)
        #expect(statistics.totalBytes == 0)
    }

    @Test("statistics remove temporary files older than an hour, and only those")
    func staleTemporaryFilesRemoved() async throws {
        // Given
        let realClock = ClockMock(Date())
        let sut = try AudioCache(directory: folder.path, clock: realClock.clock)
        let shard = folder.path + "/objects/ab"
        try FileManager.default.createDirectory(atPath: shard, withIntermediateDirectories: true)
        let leftover = shard + "/.tmp-ab12-1234-beef"
        #expect(FileManager.default.createFile(atPath: leftover, contents: Data([1, 2, 3])))
        _ = try await sut.statistics()
        #expect(FileManager.default.fileExists(atPath: leftover))

        // When
        realClock.advance(by: 2 * 3_600)
        let statistics = try await sut.statistics()

        // Then
        #expect(!FileManager.default.fileExists(atPath: leftover))
        #expect(statistics.entryCount == 0)
        #expect(statistics.removedTemporaries == 1)
    }

    @Test("statistics remove and count at once the temporary files of this machine's writers that are gone, in today's names and in the .tmp- names of older versions; a running writer's stay")
    func deadWritersTemporariesRemoved() async throws {
        // Given: temporaries of a process that has exited, of this process, and of another
        // machine, each named as now and as older versions named them
        let sut = try AudioCache(directory: folder.path)
        let shard = folder.path + "/objects/ab"
        try FileManager.default.createDirectory(atPath: shard, withIntermediateDirectories: true)
        let exited = try exitedProcessID()
        let boot = ProcessIdentity.bootID
        let me = ProcessIdentity.current
        let dead = shard + "/.ab12.narrate-tmp-\(boot)-\(exited)-7-beef"
        let live = shard + "/.ab34.narrate-tmp-\(boot)-\(me.pid)-\(me.startTicks)-beef"
        let elsewhere = shard + "/.ab56.narrate-tmp-ffffffff-\(exited)-7-beef"  // another machine's: the age rule
        let oldDead = shard + "/.tmp-ab12-\(boot)-\(exited)-7-beef"
        let oldLive = shard + "/.tmp-ab34-\(boot)-\(me.pid)-\(me.startTicks)-beef"
        let oldElsewhere = shard + "/.tmp-ab56-ffffffff-\(exited)-7-beef"
        for path in [dead, live, elsewhere, oldDead, oldLive, oldElsewhere] {
            #expect(FileManager.default.createFile(atPath: path, contents: Data([1, 2, 3])))
        }

        // When
        let statistics = try await sut.statistics()

        // Then
        #expect(statistics.removedTemporaries == 2)
        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(!FileManager.default.fileExists(atPath: oldDead))
        for kept in [live, elsewhere, oldLive, oldElsewhere] {
            #expect(FileManager.default.fileExists(atPath: kept))
        }
    }

    @Test("the first store into a shard removes what a killed writer left there (a resumed run leaves no temporary file behind); a running writer's stays")
    func storeSweepsDeadWritersTemporaries() async throws {
        // Given: in the shard of the key about to be stored, the temporary of a process that
        // was killed in the middle of a store, and one of this process
        let key = Fixtures.key("resumed")
        let shard = folder.path + "/objects/" + key.hex.prefix(2)
        try FileManager.default.createDirectory(atPath: shard, withIntermediateDirectories: true)
        let boot = ProcessIdentity.bootID
        let me = ProcessIdentity.current
        let dead = shard + "/.\(key.hex).narrate-tmp-\(boot)-\(try exitedProcessID())-7-beef"
        let live = shard + "/.\(key.hex)x.narrate-tmp-\(boot)-\(me.pid)-\(me.startTicks)-beef"
        for path in [dead, live] {
            #expect(FileManager.default.createFile(atPath: path, contents: Data([1, 2, 3])))
        }
        let sut = try makeCache()

        // When
        try await sut.store(Fixtures.audio(), key: key)

        // Then
        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(FileManager.default.fileExists(atPath: live))
        #expect(try await sut.lookup(key: key) != nil)
    }

    @Test("an entry is written under a temporary name that says this boot, PID and start time, as every output is")
    func entryTemporaryNameNamesItsWriter() {
        // Given
        let me = ProcessIdentity.current
        let entry = AudioCacheLayout(directory: folder.path).entryPath(Fixtures.key("x"))

        // When
        let temporary = TemporaryFileName.beside(entry)

        // Then
        #expect(temporary.hasPrefix(folder.path + "/objects/"))
        #expect(temporary.contains("/.\(Fixtures.key("x").hex).narrate-tmp-\(ProcessIdentity.bootID)-\(me.pid)-\(me.startTicks)-"))
        #expect(TemporaryFileName.writer(of: String(temporary.split(separator: "/").last ?? "")) == .running)
    }

    @Test("prune removes least recently used entries first until the budget is met")
    func pruneLeastRecentlyUsedFirst() async throws {
        // Given
        let sut = try makeCache()
        let keys = ["oldest", "middle", "newest"].map(Fixtures.key)
        for (index, key) in keys.enumerated() {
            try await sut.store(Fixtures.audio(seed: index), key: key)
            clock.advance(by: 10)
        }
        _ = try await sut.lookup(key: keys[0])  // "oldest" is now the most recently used
        let entrySize = try await sut.statistics().totalBytes / 3

        // When
        let result = try await sut.prune(maxBytes: 2 * entrySize)

        // Then
        #expect(result == CachePruneResult(removedEntries: 1, removedBytes: entrySize))
        #expect(try await sut.lookup(key: keys[1]) == nil)
        #expect(try await sut.lookup(key: keys[0]) != nil)
        #expect(try await sut.lookup(key: keys[2]) != nil)
        #expect(try await sut.statistics().totalBytes == 2 * entrySize)
    }

    @Test("prune to zero removes everything; a large budget removes nothing")
    func pruneBounds() async throws {
        // Given
        let sut = try makeCache()
        for index in 0..<3 {
            try await sut.store(Fixtures.audio(seed: index), key: Fixtures.key("entry \(index)"))
        }

        // When
        let none = try await sut.prune(maxBytes: .max)
        let all = try await sut.prune(maxBytes: 0)

        // Then
        #expect(none.removedEntries == 0)
        #expect(all.removedEntries == 3)
        #expect(Fixtures.objectFileNames(in: folder.path).isEmpty)
    }

    @Test("clear removes every entry and keeps the folder and the index")
    func clearEmpties() async throws {
        // Given
        let sut = try makeCache()
        for index in 0..<5 {
            try await sut.store(Fixtures.audio(seed: index), key: Fixtures.key("entry \(index)"))
        }

        // When
        try await sut.clear()

        // Then
        #expect(try await sut.statistics() == CacheStatistics(entryCount: 0, totalBytes: 0, totalDuration: 0, totalHits: 0))
        #expect(try await sut.lookup(key: Fixtures.key("entry 0")) == nil)
        #expect(Fixtures.objectFileNames(in: folder.path).isEmpty)
        #expect(FileManager.default.fileExists(atPath: folder.path + "/index.sqlite"))
        try await sut.store(Fixtures.audio(), key: Fixtures.key("after"))
        #expect(try await sut.lookup(key: Fixtures.key("after")) == Fixtures.audio())
    }

    // MARK: - Errors

    @Test("a folder that cannot be created is reported as not writable")
    func notWritable() throws {
        // Given: a path below a regular file, which no user (not even root) can create
        let file = folder.path + "/a-file"
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        let directory = file + "/cache"

        // When
        let error = #expect(throws: CacheError.self) { try AudioCache(directory: directory) }

        // Then
        guard case let .notWritable(path, reason)? = error else {
            Issue.record("expected notWritable, got \(String(describing: error))")
            return
        }
        #expect(path == directory)
        #expect(reason.contains("Not a directory"))
    }

    @Test("a failed store throws writeFailed and leaves no temporary file")
    func writeFailure() async throws {
        // Given: the entry's shard folder is taken by a regular file
        let sut = try makeCache()
        let key = Fixtures.key("blocked")
        let shard = folder.path + "/objects/" + key.hex.prefix(2)
        #expect(FileManager.default.createFile(atPath: shard, contents: Data()))

        // When
        let error = await #expect(throws: CacheError.self) { try await sut.store(Fixtures.audio(), key: key) }

        // Then
        guard case let .writeFailed(path, reason)? = error else {
            Issue.record("expected writeFailed, got \(String(describing: error))")
            return
        }
        #expect(path == Fixtures.entryPath(key, in: folder.path))
        #expect(reason.contains("File exists") || reason.contains("Not a directory"))
        #expect(Fixtures.objectFileNames(in: folder.path) == [key.hex.prefix(2).description])
    }

    @Test("audio that does not fit the entry format is rejected with writeFailed")
    func unencodableAudio() async throws {
        // Given
        let sut = try makeCache()
        let audio = SpeechAudio(sampleRate: 22_050, samples: [1, 2, 3], wordMarks: [WordMark(textOffset: -1, textLength: 1, sampleOffset: 0)])

        // When / Then
        await #expect(throws: CacheError.self) { try await sut.store(audio, key: Fixtures.key("bad")) }
    }
}

/// A logger and the messages it recorded.
struct LoggerBox {
    let logger: Logger
    let recorder: LogHandlerMock.Recorder

    init() {
        (logger, recorder) = LogHandlerMock.logger()
    }
}
