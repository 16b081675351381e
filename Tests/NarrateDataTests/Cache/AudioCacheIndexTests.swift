@testable import NarrateData
import NarrateDomain
import Testing

@Suite struct AudioCacheIndexTests {
    let folder: TemporaryDirectory
    let sut: AudioCacheIndex

    init() throws {
        folder = try TemporaryDirectory()
        sut = try AudioCacheIndex(path: folder.path + "/index.sqlite")
    }

    @Test("index updates wait in memory until a batch is full, then go in together")
    func batchesUpdates() throws {
        // Given
        for index in 0..<(AudioCacheIndex.batchSize - 1) {
            #expect(!sut.recordStore(key: "key \(index)", size: 100, duration: 1, at: 10))
        }
        #expect(try sut.statistics().entryCount == 0)

        // When
        let full = sut.recordStore(key: "last", size: 100, duration: 1, at: 10)
        try sut.flush()

        // Then
        #expect(full)
        #expect(sut.pendingCount == 0)
        #expect(try sut.statistics() == CacheStatistics(entryCount: 64, totalBytes: 6_400, totalDuration: 64, totalHits: 0))
    }

    @Test("hits and stores on one key merge; a hit on an unindexed entry creates its row")
    func mergesChanges() throws {
        // Given
        _ = sut.recordHit(key: "elsewhere", size: 50, duration: 2, at: 5)
        _ = sut.recordStore(key: "here", size: 10, duration: 1, at: 1)
        _ = sut.recordHit(key: "here", size: 10, duration: 1, at: 3)
        _ = sut.recordHit(key: "here", size: 10, duration: 1, at: 2)

        // When
        try sut.flush()
        _ = sut.recordStore(key: "here", size: 20, duration: 1.5, at: 4)
        try sut.flush()

        // Then
        let rows = try sut.rowsByLastUse()
        #expect(rows == [
            AudioCacheIndexRow(key: "here", size: 20, duration: 1.5, createdAt: 4, lastUsedAt: 4, hits: 2),
            AudioCacheIndexRow(key: "elsewhere", size: 50, duration: 2, createdAt: 5, lastUsedAt: 5, hits: 1),
        ])
    }

    @Test("a second index on the same file sees the first one's rows")
    func sharedFile() throws {
        // Given
        _ = sut.recordStore(key: "shared", size: 1, duration: 1, at: 1)
        try sut.flush()

        // When
        let other = try AudioCacheIndex(path: folder.path + "/index.sqlite")

        // Then
        #expect(try other.allKeys() == ["shared"])
    }
}
