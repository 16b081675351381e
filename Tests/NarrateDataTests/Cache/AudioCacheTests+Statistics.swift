import Foundation
import Logging
@testable import NarrateData
import NarrateDomain
import Testing

extension AudioCacheTests {
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
}
