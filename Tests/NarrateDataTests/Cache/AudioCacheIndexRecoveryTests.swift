import Foundation
import NarrateDomain
import Testing

@testable import NarrateData

/// The index is derived from the entry files: a damaged one is set aside and rebuilt.
@Suite("Audio cache index recovery")
struct AudioCacheIndexRecoveryTests {
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory()
    }

    @Test("An index whose header was overwritten is moved aside, a new one started, and every entry still served and counted")
    func damagedIndexIsRebuilt() async throws {
        // Given: two stored entries, then the index's header overwritten
        let first = AudioCacheFixtures.key("first")
        let second = AudioCacheFixtures.key("second")
        do {
            let cache = try AudioCache(directory: folder.path)
            try await cache.store(AudioCacheFixtures.audio(seed: 1), key: first)
            try await cache.store(AudioCacheFixtures.audio(seed: 2), key: second)
            try await cache.flush()
        }
        let index = folder.path + "/index.sqlite"
        let handle = try #require(FileHandle(forWritingAtPath: index))
        handle.write(Data(repeating: 0x41, count: 100))
        try handle.close()
        let (logger, recorder) = LogHandlerMock.logger()

        // When
        let sut = try AudioCache(directory: folder.path, logger: logger)
        let hit = try await sut.lookup(key: first)
        let statistics = try await sut.statistics()

        // Then
        #expect(hit == AudioCacheFixtures.audio(seed: 1))
        #expect(statistics.entryCount == 2)
        #expect(recorder.messages.count == 1)
        #expect(recorder.messages.first?.contains("index was damaged") == true)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.contains { $0.hasPrefix("index.sqlite.damaged-") })
    }

    @Test("An index that cannot be opened for another reason is still an error")
    func otherFailuresStayErrors() throws {
        // Given: a folder where the index file should be
        try FileManager.default.createDirectory(atPath: folder.path + "/index.sqlite", withIntermediateDirectories: false)

        // When / Then
        #expect(throws: CacheError.self) { try AudioCache(directory: folder.path) }
    }
}
