import Foundation
import NarrateDomain
import Testing

@testable import NarrateData

@Suite("Read-only audio cache")
struct ReadOnlyAudioCacheTests {
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory()
    }

    @Test("Entries are served and counted; storing keeps nothing; pruning and clearing say the folder cannot be written")
    func servesWhatIsThere() async throws {
        // Given: a cache with one entry
        let key = AudioCacheFixtures.key("kept")
        let writable = try AudioCache(directory: folder.path)
        try await writable.store(AudioCacheFixtures.audio(seed: 3), key: key)
        let sut = try ReadOnlyAudioCache(directory: folder.path, reason: "Read-only file system")

        // When
        let hit = try await sut.lookup(key: key)
        try await sut.store(AudioCacheFixtures.audio(seed: 4), key: AudioCacheFixtures.key("new"))
        let miss = try await sut.lookup(key: AudioCacheFixtures.key("new"))
        let statistics = try await sut.statistics()

        // Then
        #expect(hit == AudioCacheFixtures.audio(seed: 3))
        #expect(miss == nil)
        #expect(statistics.entryCount == 1)
        await #expect(throws: CacheError.notWritable(path: folder.path, reason: "Read-only file system")) { try await sut.clear() }
        await #expect(throws: CacheError.self) { _ = try await sut.prune(maxBytes: 0) }
    }

    @Test("A folder with no cache in it is not a read-only cache")
    func needsACache() {
        #expect(throws: CacheError.self) { try ReadOnlyAudioCache(directory: folder.path + "/none", reason: "Read-only file system") }
    }
}
