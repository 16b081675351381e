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

    func makeCache(logger: LoggerBox? = nil) throws -> AudioCache {
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
